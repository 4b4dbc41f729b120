/* db.h - shared declarations for the objdb workload (vortex-like): an
 * in-memory object database with a record heap, a hash index on the
 * primary key, generic B-tree indexes driven by comparator and key
 * extractor function pointers, and an undo-log transaction layer. */
#ifndef OBJDB_DB_H
#define OBJDB_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- PRNG (rng.c) --------------------------------------------------------- */
typedef struct {
    uint64_t a, b, c, d;
} Rng;

void rng_init(Rng *r, uint64_t seed);
uint64_t rng_u64(Rng *r);
int rng_int(Rng *r, int lo, int hi); /* inclusive */

/* ---- records (record.c) --------------------------------------------------- */
#define NAME_LEN 16

typedef struct {
    int64_t id;
    int64_t salary;
    int32_t dept;
    int32_t age;
    int32_t city;
    uint32_t version;
    char name[NAME_LEN];
    bool live;
} Record;

typedef struct {
    Record *recs;
    int cap, nlive;
    int *free_slots;
    int nfree;
    int high; /* slots [0, high) have been used */
} RecordStore;

void store_init(RecordStore *s, int cap);
void store_free(RecordStore *s);
int store_alloc(RecordStore *s);
void store_release(RecordStore *s, int slot);
uint64_t record_hash(const Record *r);
void record_make_name(char *out, uint64_t v);

/* ---- index keys ------------------------------------------------------------ */
typedef struct {
    int64_t k1, k2, k3;
    char str[NAME_LEN];
    int32_t slot;
} Entry;

typedef int (*EntryCmp)(const Entry *a, const Entry *b);
typedef void (*KeyExtract)(const Record *r, int slot, Entry *out);

int cmp_by_id(const Entry *a, const Entry *b);
int cmp_by_dept_salary(const Entry *a, const Entry *b);
int cmp_by_name(const Entry *a, const Entry *b);
int cmp_by_city_age(const Entry *a, const Entry *b);
void key_id(const Record *r, int slot, Entry *out);
void key_dept_salary(const Record *r, int slot, Entry *out);
void key_name(const Record *r, int slot, Entry *out);
void key_city_age(const Record *r, int slot, Entry *out);

/* ---- B-tree (btree.c) ---------------------------------------------------- */
#define BT_T 8 /* minimum degree */
#define BT_MAXK (2 * BT_T - 1)

typedef struct BNode {
    int n;
    bool leaf;
    Entry keys[BT_MAXK];
    struct BNode *child[BT_MAXK + 1];
} BNode;

typedef struct {
    const char *name;
    BNode *root;
    EntryCmp cmp;
    KeyExtract extract;
    size_t count;
    uint64_t node_visits;
} BTree;

typedef bool (*Visitor)(const Entry *e, void *ctx); /* false stops the scan */

void bt_init(BTree *t, const char *name, EntryCmp cmp, KeyExtract ex);
void bt_destroy(BTree *t);
bool bt_insert(BTree *t, const Entry *e);
bool bt_delete(BTree *t, const Entry *e);
bool bt_find(BTree *t, const Entry *probe, Entry *out);
size_t bt_range(BTree *t, const Entry *lo, const Entry *hi, Visitor v, void *ctx);
bool bt_validate(const BTree *t, const char **why);
int bt_height(const BTree *t);

/* ---- hash index (hashidx.c) --------------------------------------------- */
typedef uint64_t (*KeyHash)(int64_t key);

typedef struct {
    int64_t *keys;
    int32_t *vals; /* slot, -1 empty, -2 tombstone */
    uint32_t cap, count, used;
    KeyHash hash;
    uint64_t probes;
} HashIdx;

uint64_t hash_mix64(int64_t key);
void hx_init(HashIdx *h, uint32_t cap, KeyHash fn);
void hx_free(HashIdx *h);
bool hx_put(HashIdx *h, int64_t key, int32_t val);
int32_t hx_get(HashIdx *h, int64_t key);
bool hx_remove(HashIdx *h, int64_t key);

/* ---- database and transactions (db.c, txn.c) ---------------------------- */
enum { IDX_ID, IDX_DEPT, IDX_NAME, IDX_CITY, NUM_IDX };

typedef enum { LOG_INSERT, LOG_DELETE, LOG_UPDATE, LOG_COMMIT, LOG_ABORT } LogKind;

typedef struct {
    LogKind kind;
    int slot;
    Record before, after;
} LogRec;

typedef struct {
    LogRec *recs;
    int n, cap;
    int txn_start; /* -1 when no transaction is open */
    uint64_t lsn;
    uint64_t digest; /* hash of every committed log record */
    uint64_t commits, aborts;
} Log;

typedef struct {
    RecordStore store;
    HashIdx by_id;
    BTree idx[NUM_IDX];
    Log log;
    uint64_t fingerprint; /* xor of record_hash over live records */
    int64_t next_id;
} Db;

void db_init(Db *db, int cap);
void db_free(Db *db);
int db_insert(Db *db, const Record *r);
bool db_delete(Db *db, int64_t id);
bool db_update(Db *db, int64_t id, const Record *nr);
const Record *db_get(Db *db, int64_t id);
const Record *db_get_btree(Db *db, int64_t id);
void db_raw_insert(Db *db, int slot, const Record *r);
void db_raw_delete(Db *db, int slot);
void db_raw_update(Db *db, int slot, const Record *nr);

void log_init(Log *l);
void log_free(Log *l);
void txn_begin(Db *db);
void txn_commit(Db *db);
void txn_abort(Db *db);
void log_append(Db *db, LogKind kind, int slot, const Record *before, const Record *after);

/* ---- workload and verification (workload.c, verify.c) ------------------- */
typedef struct {
    int initial, ops;
    uint64_t seed;
} WorkloadSpec;

typedef struct {
    uint64_t lookups, hits, inserts, deletes, updates, ranges, range_rows;
    uint64_t txns, aborted, checksum;
} WorkloadStats;

void workload_load(Db *db, Rng *r, int n);
void workload_run(Db *db, const WorkloadSpec *ws, WorkloadStats *st);
bool verify_db(Db *db, Rng *r, const char **why, uint64_t *digest);

void fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

#endif
