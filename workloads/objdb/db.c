/* db.c - objdb database core: keeps the record heap, the primary-key hash
 * index and all B-tree indexes in step.  The raw_* functions change state
 * without logging (also used by undo); the db_* functions log first. */
#include "db.h"

#include <string.h>

static const struct {
    const char *name;
    EntryCmp cmp;
    KeyExtract ex;
} index_defs[NUM_IDX] = {
    [IDX_ID] = {"id", cmp_by_id, key_id},
    [IDX_DEPT] = {"dept_salary", cmp_by_dept_salary, key_dept_salary},
    [IDX_NAME] = {"name", cmp_by_name, key_name},
    [IDX_CITY] = {"city_age", cmp_by_city_age, key_city_age},
};

void db_init(Db *db, int cap)
{
    store_init(&db->store, cap);
    hx_init(&db->by_id, 64, hash_mix64);
    for (int i = 0; i < NUM_IDX; i++)
        bt_init(&db->idx[i], index_defs[i].name, index_defs[i].cmp, index_defs[i].ex);
    log_init(&db->log);
    db->fingerprint = 0;
    db->next_id = 1000;
}

void db_free(Db *db)
{
    for (int i = 0; i < NUM_IDX; i++)
        bt_destroy(&db->idx[i]);
    hx_free(&db->by_id);
    store_free(&db->store);
    log_free(&db->log);
}

static void index_add(BTree *t, const Record *r, int slot)
{
    Entry e;
    t->extract(r, slot, &e);
    if (!bt_insert(t, &e))
        fail("duplicate key in index %s", t->name);
}

static void index_remove(BTree *t, const Record *r, int slot)
{
    Entry e;
    t->extract(r, slot, &e);
    if (!bt_delete(t, &e))
        fail("missing key in index %s", t->name);
}

void db_raw_insert(Db *db, int slot, const Record *r)
{
    db->store.recs[slot] = *r;
    db->store.recs[slot].live = true;
    if (!hx_put(&db->by_id, r->id, slot))
        fail("duplicate primary key %lld", (long long)r->id);
    for (int i = 0; i < NUM_IDX; i++)
        index_add(&db->idx[i], &db->store.recs[slot], slot);
    db->fingerprint ^= record_hash(&db->store.recs[slot]);
}

void db_raw_delete(Db *db, int slot)
{
    Record *r = &db->store.recs[slot];
    db->fingerprint ^= record_hash(r);
    for (int i = 0; i < NUM_IDX; i++)
        index_remove(&db->idx[i], r, slot);
    hx_remove(&db->by_id, r->id);
    store_release(&db->store, slot);
}

/* Re-index only where the extracted key actually changed. */
void db_raw_update(Db *db, int slot, const Record *nr)
{
    Record *r = &db->store.recs[slot];
    db->fingerprint ^= record_hash(r);
    for (int i = 0; i < NUM_IDX; i++) {
        BTree *t = &db->idx[i];
        Entry a, b;
        t->extract(r, slot, &a);
        t->extract(nr, slot, &b);
        if (t->cmp(&a, &b) != 0) {
            if (!bt_delete(t, &a) || !bt_insert(t, &b))
                fail("index %s update failed", t->name);
        }
    }
    *r = *nr;
    r->live = true;
    db->fingerprint ^= record_hash(r);
}

int db_insert(Db *db, const Record *r)
{
    int slot = store_alloc(&db->store);
    log_append(db, LOG_INSERT, slot, NULL, r);
    db_raw_insert(db, slot, r);
    return slot;
}

bool db_delete(Db *db, int64_t id)
{
    int slot = hx_get(&db->by_id, id);
    if (slot < 0)
        return false;
    log_append(db, LOG_DELETE, slot, &db->store.recs[slot], NULL);
    db_raw_delete(db, slot);
    return true;
}

bool db_update(Db *db, int64_t id, const Record *nr)
{
    int slot = hx_get(&db->by_id, id);
    if (slot < 0)
        return false;
    if (nr->id != id)
        fail("primary key change not allowed");
    log_append(db, LOG_UPDATE, slot, &db->store.recs[slot], nr);
    db_raw_update(db, slot, nr);
    return true;
}

const Record *db_get(Db *db, int64_t id)
{
    int slot = hx_get(&db->by_id, id);
    return slot < 0 ? NULL : &db->store.recs[slot];
}

const Record *db_get_btree(Db *db, int64_t id)
{
    Entry probe, hit;
    memset(&probe, 0, sizeof probe);
    probe.k1 = id;
    if (!bt_find(&db->idx[IDX_ID], &probe, &hit))
        return NULL;
    return &db->store.recs[hit.slot];
}
