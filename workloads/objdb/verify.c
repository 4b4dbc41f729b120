/* verify.c - end-of-run consistency check of objdb: validates every B-tree's
 * structure, cross-checks the primary B-tree against the hash index and the
 * record heap, checks every secondary entry against its record's extracted
 * key, and computes the final database digest. */
#include "db.h"

#include <string.h>

typedef struct {
    Db *db;
    BTree *t;
    uint64_t n;
    uint64_t digest;
    const char *why;
} WalkCtx;

static bool walk_primary(const Entry *e, void *vctx)
{
    WalkCtx *c = vctx;
    const Record *r = &c->db->store.recs[e->slot];
    if (!r->live || r->id != e->k1) {
        c->why = "primary entry points at a wrong record";
        return false;
    }
    if (hx_get(&c->db->by_id, e->k1) != e->slot) {
        c->why = "hash index disagrees with primary B-tree";
        return false;
    }
    c->n++;
    c->digest = (c->digest ^ record_hash(r)) * 0x100000001b3ULL;
    return true;
}

static bool walk_secondary(const Entry *e, void *vctx)
{
    WalkCtx *c = vctx;
    const Record *r = &c->db->store.recs[e->slot];
    Entry k;
    c->t->extract(r, e->slot, &k);
    if (!r->live || c->t->cmp(&k, e) != 0 || k.slot != e->slot) {
        c->why = "secondary entry does not match its record";
        return false;
    }
    c->n++;
    c->digest = (c->digest ^ (uint64_t)r->id) * 0x100000001b3ULL;
    return true;
}

static bool check_store(Db *db, const char **why)
{
    int live = 0;
    for (int s = 0; s < db->store.high; s++) {
        const Record *r = &db->store.recs[s];
        if (!r->live)
            continue;
        live++;
        if (hx_get(&db->by_id, r->id) != s) {
            *why = "live record missing from hash index";
            return false;
        }
        for (int i = 0; i < NUM_IDX; i++) {
            Entry k, hit;
            db->idx[i].extract(r, s, &k);
            if (!bt_find(&db->idx[i], &k, &hit) || hit.slot != s) {
                *why = "live record missing from a B-tree index";
                return false;
            }
        }
    }
    if (live != db->store.nlive) {
        *why = "live record count wrong";
        return false;
    }
    return true;
}

static bool check_ranges(Db *db, Rng *r, int n, const char **why)
{
    for (int q = 0; q < n; q++) {
        int city = rng_int(r, 0, 499);
        int age_lo = rng_int(r, 18, 60);
        Entry lo, hi;
        memset(&lo, 0, sizeof lo);
        memset(&hi, 0, sizeof hi);
        lo.k1 = hi.k1 = city;
        lo.k2 = age_lo;
        hi.k2 = age_lo + 10;
        lo.k3 = INT64_MIN;
        hi.k3 = INT64_MAX;
        WalkCtx c = {db, &db->idx[IDX_CITY], 0, 0, NULL};
        bt_range(c.t, &lo, &hi, walk_secondary, &c);
        uint64_t expect = 0;
        for (int s = 0; s < db->store.high; s++) {
            const Record *rec = &db->store.recs[s];
            if (rec->live && rec->city == city && rec->age >= age_lo && rec->age <= age_lo + 10)
                expect++;
        }
        if (c.why || c.n != expect) {
            *why = "city/age range query disagrees with a full scan";
            return false;
        }
    }
    return true;
}

bool verify_db(Db *db, Rng *r, const char **why, uint64_t *digest)
{
    for (int i = 0; i < NUM_IDX; i++) {
        if (!bt_validate(&db->idx[i], why))
            return false;
        if (db->idx[i].count != (size_t)db->store.nlive) {
            *why = "index size differs from the record count";
            return false;
        }
    }
    if (db->by_id.count != (uint32_t)db->store.nlive) {
        *why = "hash index size differs from the record count";
        return false;
    }
    WalkCtx c = {db, &db->idx[IDX_ID], 0, 0, NULL};
    bt_range(c.t, NULL, NULL, walk_primary, &c);
    if (c.why) {
        *why = c.why;
        return false;
    }
    uint64_t d = c.digest;
    for (int i = IDX_DEPT; i < NUM_IDX; i++) {
        WalkCtx s = {db, &db->idx[i], 0, 0, NULL};
        bt_range(s.t, NULL, NULL, walk_secondary, &s);
        if (s.why || s.n != (uint64_t)db->store.nlive) {
            *why = s.why ? s.why : "secondary index walk incomplete";
            return false;
        }
        d = d * 31 + s.digest;
    }
    if (!check_store(db, why) || !check_ranges(db, r, 24, why))
        return false;
    *digest = d;
    return true;
}
