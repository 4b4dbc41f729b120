/* btree.c - generic in-memory B-tree (CLRS style, minimum degree BT_T) used
 * for every objdb index.  Ordering comes from a comparator function
 * pointer; supports insert with pre-emptive splits, full delete with
 * borrowing and merging, exact lookup, visitor-based range scans and a
 * structural validator. */
#include "db.h"

#include <stdlib.h>
#include <string.h>

static BNode *node_new(bool leaf)
{
    BNode *n = malloc(sizeof *n);
    if (!n)
        fail("out of memory");
    n->n = 0;
    n->leaf = leaf;
    return n;
}

static void node_free_rec(BNode *n)
{
    if (!n)
        return;
    if (!n->leaf)
        for (int i = 0; i <= n->n; i++)
            node_free_rec(n->child[i]);
    free(n);
}

void bt_init(BTree *t, const char *name, EntryCmp cmp, KeyExtract ex)
{
    t->name = name;
    t->root = node_new(true);
    t->cmp = cmp;
    t->extract = ex;
    t->count = 0;
    t->node_visits = 0;
}

void bt_destroy(BTree *t)
{
    node_free_rec(t->root);
    t->root = NULL;
}

/* First index i with keys[i] >= e (binary search). */
static int lower_bound(const BTree *t, const BNode *x, const Entry *e)
{
    int lo = 0, hi = x->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (t->cmp(&x->keys[mid], e) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

bool bt_find(BTree *t, const Entry *probe, Entry *out)
{
    BNode *x = t->root;
    for (;;) {
        t->node_visits++;
        int i = lower_bound(t, x, probe);
        if (i < x->n && t->cmp(&x->keys[i], probe) == 0) {
            if (out)
                *out = x->keys[i];
            return true;
        }
        if (x->leaf)
            return false;
        x = x->child[i];
    }
}

/* ---- insertion ------------------------------------------------------------- */

static void split_child(BNode *x, int i)
{
    BNode *y = x->child[i];
    BNode *z = node_new(y->leaf);
    z->n = BT_T - 1;
    memcpy(z->keys, &y->keys[BT_T], (BT_T - 1) * sizeof(Entry));
    if (!y->leaf)
        memcpy(z->child, &y->child[BT_T], BT_T * sizeof(BNode *));
    y->n = BT_T - 1;
    memmove(&x->child[i + 2], &x->child[i + 1], (size_t)(x->n - i) * sizeof(BNode *));
    x->child[i + 1] = z;
    memmove(&x->keys[i + 1], &x->keys[i], (size_t)(x->n - i) * sizeof(Entry));
    x->keys[i] = y->keys[BT_T - 1];
    x->n++;
}

static bool insert_nonfull(BTree *t, BNode *x, const Entry *e)
{
    for (;;) {
        t->node_visits++;
        int i = lower_bound(t, x, e);
        if (i < x->n && t->cmp(&x->keys[i], e) == 0)
            return false; /* duplicate key */
        if (x->leaf) {
            memmove(&x->keys[i + 1], &x->keys[i], (size_t)(x->n - i) * sizeof(Entry));
            x->keys[i] = *e;
            x->n++;
            return true;
        }
        if (x->child[i]->n == BT_MAXK) {
            split_child(x, i);
            int c = t->cmp(e, &x->keys[i]);
            if (c == 0)
                return false;
            if (c > 0)
                i++;
        }
        x = x->child[i];
    }
}

bool bt_insert(BTree *t, const Entry *e)
{
    if (t->root->n == BT_MAXK) {
        BNode *s = node_new(false);
        s->child[0] = t->root;
        t->root = s;
        split_child(s, 0);
    }
    if (!insert_nonfull(t, t->root, e))
        return false;
    t->count++;
    return true;
}

/* ---- deletion ---------------------------------------------------------------- */

static void remove_key_at(BNode *x, int i)
{
    memmove(&x->keys[i], &x->keys[i + 1], (size_t)(x->n - i - 1) * sizeof(Entry));
    x->n--;
}

static Entry subtree_max(BNode *x)
{
    while (!x->leaf)
        x = x->child[x->n];
    return x->keys[x->n - 1];
}

static Entry subtree_min(BNode *x)
{
    while (!x->leaf)
        x = x->child[0];
    return x->keys[0];
}

/* Merge child[i+1] and keys[i] into child[i]. */
static void merge_children(BNode *x, int i)
{
    BNode *y = x->child[i], *z = x->child[i + 1];
    y->keys[y->n] = x->keys[i];
    memcpy(&y->keys[y->n + 1], z->keys, (size_t)z->n * sizeof(Entry));
    if (!y->leaf)
        memcpy(&y->child[y->n + 1], z->child, (size_t)(z->n + 1) * sizeof(BNode *));
    y->n += z->n + 1;
    remove_key_at(x, i);
    memmove(&x->child[i + 1], &x->child[i + 2], (size_t)(x->n - i) * sizeof(BNode *));
    free(z);
}

static void borrow_from_prev(BNode *x, int i)
{
    BNode *c = x->child[i], *s = x->child[i - 1];
    memmove(&c->keys[1], c->keys, (size_t)c->n * sizeof(Entry));
    if (!c->leaf)
        memmove(&c->child[1], c->child, (size_t)(c->n + 1) * sizeof(BNode *));
    c->keys[0] = x->keys[i - 1];
    if (!c->leaf)
        c->child[0] = s->child[s->n];
    x->keys[i - 1] = s->keys[s->n - 1];
    c->n++;
    s->n--;
}

static void borrow_from_next(BNode *x, int i)
{
    BNode *c = x->child[i], *s = x->child[i + 1];
    c->keys[c->n] = x->keys[i];
    if (!c->leaf)
        c->child[c->n + 1] = s->child[0];
    x->keys[i] = s->keys[0];
    memmove(s->keys, &s->keys[1], (size_t)(s->n - 1) * sizeof(Entry));
    if (!s->leaf)
        memmove(s->child, &s->child[1], (size_t)s->n * sizeof(BNode *));
    c->n++;
    s->n--;
}

/* Make sure child[i] has at least BT_T keys; returns the index to descend. */
static int fill_child(BNode *x, int i)
{
    if (i > 0 && x->child[i - 1]->n >= BT_T) {
        borrow_from_prev(x, i);
    } else if (i < x->n && x->child[i + 1]->n >= BT_T) {
        borrow_from_next(x, i);
    } else if (i < x->n) {
        merge_children(x, i);
    } else {
        merge_children(x, i - 1);
        i--;
    }
    return i;
}

static bool delete_from(BTree *t, BNode *x, const Entry *e)
{
    for (;;) {
        t->node_visits++;
        int i = lower_bound(t, x, e);
        bool here = i < x->n && t->cmp(&x->keys[i], e) == 0;
        if (here && x->leaf) {
            remove_key_at(x, i);
            return true;
        }
        if (here) {
            BNode *y = x->child[i], *z = x->child[i + 1];
            if (y->n >= BT_T) {
                Entry pred = subtree_max(y);
                x->keys[i] = pred;
                return delete_from(t, y, &pred);
            }
            if (z->n >= BT_T) {
                Entry succ = subtree_min(z);
                x->keys[i] = succ;
                return delete_from(t, z, &succ);
            }
            merge_children(x, i);
            x = y;
            continue;
        }
        if (x->leaf)
            return false;
        if (x->child[i]->n < BT_T)
            i = fill_child(x, i);
        x = x->child[i];
    }
}

bool bt_delete(BTree *t, const Entry *e)
{
    bool found = delete_from(t, t->root, e);
    if (t->root->n == 0 && !t->root->leaf) {
        BNode *old = t->root;
        t->root = old->child[0];
        free(old);
    }
    if (found)
        t->count--;
    return found;
}

/* ---- range scans ------------------------------------------------------------- */

typedef struct {
    BTree *t;
    const Entry *lo, *hi;
    Visitor visit;
    void *ctx;
    size_t seen;
    bool stop;
} Scan;

static void scan_node(Scan *s, BNode *x)
{
    s->t->node_visits++;
    int i = s->lo ? lower_bound(s->t, x, s->lo) : 0;
    for (; i <= x->n && !s->stop; i++) {
        if (!x->leaf)
            scan_node(s, x->child[i]);
        if (i == x->n || s->stop)
            break;
        if (s->hi && s->t->cmp(&x->keys[i], s->hi) > 0) {
            s->stop = true;
            break;
        }
        s->seen++;
        if (!s->visit(&x->keys[i], s->ctx))
            s->stop = true;
    }
}

size_t bt_range(BTree *t, const Entry *lo, const Entry *hi, Visitor v, void *ctx)
{
    Scan s = {t, lo, hi, v, ctx, 0, false};
    scan_node(&s, t->root);
    return s.seen;
}

/* ---- validation ---------------------------------------------------------------- */

typedef struct {
    const BTree *t;
    int leaf_depth;
    size_t count;
    const char *why;
    const Entry *last;
} Check;

static bool check_node(Check *c, const BNode *x, int depth, bool is_root)
{
    if (!is_root && (x->n < BT_T - 1 || x->n > BT_MAXK)) {
        c->why = "node key count out of bounds";
        return false;
    }
    for (int i = 0; i <= x->n; i++) {
        if (!x->leaf && !check_node(c, x->child[i], depth + 1, false))
            return false;
        if (i == x->n)
            break;
        if (c->last && c->t->cmp(c->last, &x->keys[i]) >= 0) {
            c->why = "keys out of order";
            return false;
        }
        c->last = &x->keys[i];
        c->count++;
    }
    if (x->leaf) {
        if (c->leaf_depth < 0)
            c->leaf_depth = depth;
        else if (c->leaf_depth != depth) {
            c->why = "leaves at different depths";
            return false;
        }
    }
    return true;
}

bool bt_validate(const BTree *t, const char **why)
{
    Check c = {t, -1, 0, NULL, NULL};
    if (!check_node(&c, t->root, 0, true)) {
        *why = c.why;
        return false;
    }
    if (c.count != t->count) {
        *why = "entry count mismatch";
        return false;
    }
    return true;
}

int bt_height(const BTree *t)
{
    int h = 1;
    for (const BNode *x = t->root; !x->leaf; x = x->child[0])
        h++;
    return h;
}
