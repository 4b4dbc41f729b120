/* workload.c - generated query workload for objdb: bulk load, then a mix
 * of point lookups (hash index cross-checked against the primary B-tree),
 * inserts, deletes, updates and range queries over the secondary indexes,
 * grouped into transactions of which some abort and are verified to leave
 * the database fingerprint unchanged. */
#include "db.h"

#include <stdint.h>
#include <string.h>

typedef struct {
    Db *db;
    BTree *t;
    uint64_t rows;
    int64_t sum;
    uint64_t hash;
    int limit;
} RangeCtx;

static void gen_record(Db *db, Rng *r, Record *out)
{
    memset(out, 0, sizeof *out);
    db->next_id += rng_int(r, 1, 3);
    out->id = db->next_id;
    out->salary = 20000 + rng_int(r, 0, 179999);
    out->dept = rng_int(r, 0, 63);
    out->age = rng_int(r, 18, 70);
    out->city = rng_int(r, 0, 499);
    out->version = 1;
    record_make_name(out->name, rng_u64(r));
    out->live = true;
}

void workload_load(Db *db, Rng *r, int n)
{
    Record rec;
    txn_begin(db);
    for (int i = 0; i < n; i++) {
        gen_record(db, r, &rec);
        db_insert(db, &rec);
        if ((i & 255) == 255) {
            txn_commit(db);
            txn_begin(db);
        }
    }
    txn_commit(db);
}

static uint64_t fold(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ULL + 7; }

/* ---- range-query visitors --------------------------------------------------- */

static bool visit_sum_salary(const Entry *e, void *vctx)
{
    RangeCtx *c = vctx;
    const Record *r = &c->db->store.recs[e->slot];
    Entry check;
    c->t->extract(r, e->slot, &check);
    if (!r->live || c->t->cmp(&check, e) != 0)
        fail("index %s entry does not match its record", c->t->name);
    c->rows++;
    c->sum += r->salary;
    c->hash = fold(c->hash, (uint64_t)r->id);
    return c->limit <= 0 || c->rows < (uint64_t)c->limit;
}

static bool visit_ages(const Entry *e, void *vctx)
{
    RangeCtx *c = vctx;
    const Record *r = &c->db->store.recs[e->slot];
    c->rows++;
    c->sum += r->age;
    c->hash = fold(c->hash, (uint64_t)r->id ^ (uint64_t)r->age);
    return true;
}

static void bound(Entry *e, int64_t k1, int64_t k2, int64_t k3)
{
    memset(e, 0, sizeof *e);
    e->k1 = k1;
    e->k2 = k2;
    e->k3 = k3;
}

static void range_dept(Db *db, Rng *r, WorkloadStats *st, bool cross_check)
{
    int dept = rng_int(r, 0, 63);
    int64_t lo_s = 20000 + rng_int(r, 0, 150000);
    int64_t hi_s = lo_s + rng_int(r, 1000, 40000);
    Entry lo, hi;
    bound(&lo, dept, lo_s, INT64_MIN);
    bound(&hi, dept, hi_s, INT64_MAX);
    RangeCtx c = {db, &db->idx[IDX_DEPT], 0, 0, 0, 0};
    bt_range(c.t, &lo, &hi, visit_sum_salary, &c);
    if (cross_check) {
        uint64_t rows = 0;
        int64_t sum = 0;
        for (int s = 0; s < db->store.high; s++) {
            const Record *rec = &db->store.recs[s];
            if (rec->live && rec->dept == dept && rec->salary >= lo_s && rec->salary <= hi_s) {
                rows++;
                sum += rec->salary;
            }
        }
        if (rows != c.rows || sum != c.sum)
            fail("dept range query disagrees with a full scan");
    }
    st->ranges++;
    st->range_rows += c.rows;
    st->checksum = fold(st->checksum, c.hash ^ (uint64_t)c.sum);
}

static void range_name(Db *db, Rng *r, WorkloadStats *st)
{
    Entry lo, hi;
    char prefix[NAME_LEN];
    record_make_name(prefix, rng_u64(r));
    prefix[2] = '\0';
    bound(&lo, 0, 0, INT64_MIN);
    bound(&hi, 0, 0, INT64_MAX);
    memcpy(lo.str, prefix, 2);
    memcpy(hi.str, prefix, 2);
    memset(hi.str + 2, '~', NAME_LEN - 3);
    RangeCtx c = {db, &db->idx[IDX_NAME], 0, 0, 0, 50};
    bt_range(c.t, &lo, &hi, visit_sum_salary, &c);
    st->ranges++;
    st->range_rows += c.rows;
    st->checksum = fold(st->checksum, c.hash + c.rows);
}

static void range_city(Db *db, Rng *r, WorkloadStats *st)
{
    int city = rng_int(r, 0, 497);
    Entry lo, hi;
    bound(&lo, city, 0, INT64_MIN);
    bound(&hi, city + 2, 1000, INT64_MAX);
    RangeCtx c = {db, &db->idx[IDX_CITY], 0, 0, 0, 0};
    bt_range(c.t, &lo, &hi, visit_ages, &c);
    st->ranges++;
    st->range_rows += c.rows;
    st->checksum = fold(st->checksum, c.hash ^ (uint64_t)c.sum);
}

/* ---- point operations ------------------------------------------------------- */

static int64_t random_id(Db *db, Rng *r)
{
    return 1000 + rng_int(r, 0, (int)(db->next_id - 1000));
}

static void op_lookup(Db *db, Rng *r, WorkloadStats *st)
{
    int64_t id = random_id(db, r);
    const Record *a = db_get(db, id);
    const Record *b = db_get_btree(db, id);
    if (a != b)
        fail("hash index and B-tree disagree on id %lld", (long long)id);
    st->lookups++;
    if (a) {
        st->hits++;
        st->checksum = fold(st->checksum, record_hash(a));
    }
}

static int64_t find_live_id(Db *db, Rng *r)
{
    for (int tries = 0; tries < 16; tries++) {
        int64_t id = random_id(db, r);
        if (db_get(db, id))
            return id;
    }
    return -1;
}

static void op_update(Db *db, Rng *r, WorkloadStats *st)
{
    int64_t id = find_live_id(db, r);
    if (id < 0)
        return;
    Record nr = *db_get(db, id);
    nr.version++;
    nr.salary += rng_int(r, -5000, 8000);
    if (nr.salary < 1000)
        nr.salary = 1000;
    int what = rng_int(r, 0, 9);
    if (what < 3)
        nr.dept = rng_int(r, 0, 63);
    else if (what < 5)
        nr.city = rng_int(r, 0, 499);
    else if (what == 5)
        record_make_name(nr.name, rng_u64(r));
    else if (what == 6)
        nr.age++;
    db_update(db, id, &nr);
    st->updates++;
}

static void op_delete(Db *db, Rng *r, WorkloadStats *st)
{
    int64_t id = find_live_id(db, r);
    if (id >= 0 && db_delete(db, id))
        st->deletes++;
}

static void op_insert(Db *db, Rng *r, WorkloadStats *st)
{
    Record rec;
    gen_record(db, r, &rec);
    db_insert(db, &rec);
    st->inserts++;
}

static void run_one_op(Db *db, Rng *r, WorkloadStats *st)
{
    int u = rng_int(r, 0, 99);
    if (u < 30)
        op_lookup(db, r, st);
    else if (u < 45)
        op_insert(db, r, st);
    else if (u < 55)
        op_delete(db, r, st);
    else if (u < 72)
        op_update(db, r, st);
    else if (u < 90)
        range_dept(db, r, st, (st->ranges & 127) == 0);
    else if (u < 95)
        range_name(db, r, st);
    else
        range_city(db, r, st);
}

void workload_run(Db *db, const WorkloadSpec *ws, WorkloadStats *st)
{
    Rng r;
    rng_init(&r, ws->seed);
    memset(st, 0, sizeof *st);
    workload_load(db, &r, ws->initial);
    int done = 0;
    while (done < ws->ops) {
        int n = rng_int(&r, 1, 8);
        bool abort_it = rng_int(&r, 0, 9) == 0;
        uint64_t fp = db->fingerprint;
        int live = db->store.nlive;
        txn_begin(db);
        for (int i = 0; i < n; i++)
            run_one_op(db, &r, st);
        done += n;
        st->txns++;
        if (abort_it) {
            txn_abort(db);
            st->aborted++;
            if (db->fingerprint != fp || db->store.nlive != live)
                fail("aborted transaction did not restore the database");
        } else {
            txn_commit(db);
        }
    }
}
