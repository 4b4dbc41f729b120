/* txn.c - objdb transaction layer: an in-memory undo/redo log with before
 * and after images.  Commit folds the transaction's log records into a
 * running digest (standing in for a durable WAL) and truncates the log;
 * abort replays the undo images in reverse order. */
#include "db.h"

#include <stdlib.h>
#include <string.h>

void log_init(Log *l)
{
    l->cap = 64;
    l->n = 0;
    l->recs = malloc((size_t)l->cap * sizeof(LogRec));
    if (!l->recs)
        fail("out of memory");
    l->txn_start = -1;
    l->lsn = 0;
    l->digest = 0;
    l->commits = l->aborts = 0;
}

void log_free(Log *l) { free(l->recs); }

void log_append(Db *db, LogKind kind, int slot, const Record *before, const Record *after)
{
    Log *l = &db->log;
    if (l->n == l->cap) {
        l->cap *= 2;
        l->recs = realloc(l->recs, (size_t)l->cap * sizeof(LogRec));
        if (!l->recs)
            fail("out of memory");
    }
    LogRec *lr = &l->recs[l->n++];
    memset(lr, 0, sizeof *lr);
    lr->kind = kind;
    lr->slot = slot;
    if (before)
        lr->before = *before;
    if (after)
        lr->after = *after;
    l->lsn++;
}

static uint64_t logrec_hash(const LogRec *lr, uint64_t lsn)
{
    uint64_t h = lsn * 0x9e3779b97f4a7c15ULL + (uint64_t)lr->kind * 31 + (uint64_t)lr->slot;
    if (lr->kind == LOG_DELETE || lr->kind == LOG_UPDATE)
        h ^= record_hash(&lr->before) * 3;
    if (lr->kind == LOG_INSERT || lr->kind == LOG_UPDATE)
        h ^= record_hash(&lr->after) * 5;
    return h;
}

void txn_begin(Db *db)
{
    if (db->log.txn_start >= 0)
        fail("nested transaction");
    db->log.txn_start = db->log.n;
}

void txn_commit(Db *db)
{
    Log *l = &db->log;
    log_append(db, LOG_COMMIT, -1, NULL, NULL);
    uint64_t lsn = l->lsn - (uint64_t)(l->n - l->txn_start);
    for (int i = l->txn_start; i < l->n; i++)
        l->digest = (l->digest ^ logrec_hash(&l->recs[i], ++lsn)) * 0x100000001b3ULL;
    l->n = 0; /* checkpoint: committed records are no longer needed */
    l->txn_start = -1;
    l->commits++;
}

static void undo_one(Db *db, const LogRec *lr)
{
    switch (lr->kind) {
    case LOG_INSERT:
        db_raw_delete(db, lr->slot);
        break;
    case LOG_DELETE: {
        int slot = store_alloc(&db->store);
        if (slot != lr->slot) /* the free list is LIFO, so undo reuses it */
            fail("undo: slot %d reallocated as %d", lr->slot, slot);
        db_raw_insert(db, slot, &lr->before);
        break;
    }
    case LOG_UPDATE:
        db_raw_update(db, lr->slot, &lr->before);
        break;
    default:
        break;
    }
}

void txn_abort(Db *db)
{
    Log *l = &db->log;
    for (int i = l->n - 1; i >= l->txn_start; i--)
        undo_one(db, &l->recs[i]);
    l->n = l->txn_start;
    log_append(db, LOG_ABORT, -1, NULL, NULL);
    l->digest = (l->digest ^ l->lsn) * 0x100000001b3ULL;
    l->n = 0;
    l->txn_start = -1;
    l->aborts++;
}
