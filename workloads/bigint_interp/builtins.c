/* builtins.c - built-in functions of the bigint_interp language: number
 * theory helpers over the bigint library, arrays, and a global hash
 * dictionary keyed by integers (used by scripts for memoisation). */
#include "interp.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

typedef value (*builtin_fn)(value *args, interp_stats *st);

typedef struct builtin {
    const char *name;
    int arity;
    builtin_fn fn;
} builtin;

/* ---- dictionary ------------------------------------------------------- */

typedef struct dent {
    bn *key;
    value val;
    uint64_t hash;
    struct dent *next;
} dent;

static dent **dict;
static int dict_cap, dict_count;

static void dict_grow(void)
{
    int ncap = dict_cap ? dict_cap * 2 : 256;
    dent **nt = calloc((size_t)ncap, sizeof(dent *));
    for (int i = 0; i < dict_cap; i++) {
        dent *e = dict[i];
        while (e) {
            dent *nx = e->next;
            int h = (int)(e->hash % (uint64_t)ncap);
            e->next = nt[h];
            nt[h] = e;
            e = nx;
        }
    }
    free(dict);
    dict = nt;
    dict_cap = ncap;
}

static dent *dict_find(const bn *key, uint64_t h)
{
    if (!dict_cap)
        return NULL;
    for (dent *e = dict[h % (uint64_t)dict_cap]; e; e = e->next)
        if (e->hash == h && bn_cmp(e->key, key) == 0)
            return e;
    return NULL;
}

static void dict_put(const bn *key, value v)
{
    uint64_t h = bn_hash(key);
    dent *e = dict_find(key, h);
    if (e) {
        val_free(e->val);
        e->val = val_copy(v);
        return;
    }
    if (dict_count >= dict_cap * 3 / 4)
        dict_grow();
    e = malloc(sizeof(dent));
    e->key = bn_copy(key);
    e->val = val_copy(v);
    e->hash = h;
    int b = (int)(h % (uint64_t)dict_cap);
    e->next = dict[b];
    dict[b] = e;
    dict_count++;
}

void builtins_reset(void)
{
    for (int i = 0; i < dict_cap; i++) {
        dent *e = dict[i];
        while (e) {
            dent *nx = e->next;
            bn_free(e->key);
            val_free(e->val);
            free(e);
            e = nx;
        }
    }
    free(dict);
    dict = NULL;
    dict_cap = dict_count = 0;
}

/* ---- helpers ---------------------------------------------------------- */

static int need_ints(value *args, int n, interp_stats *st, const char *who)
{
    for (int i = 0; i < n; i++)
        if (args[i].kind != V_INT) {
            if (!st->failed) {
                st->failed = 1;
                snprintf(st->errmsg, sizeof(st->errmsg), "%s: integer argument expected", who);
            }
            return 0;
        }
    return 1;
}

static value zero(void) { return val_int(bn_new(1)); }

/* ---- builtins --------------------------------------------------------- */

static value b_gcd(value *a, interp_stats *st)
{
    if (!need_ints(a, 2, st, "gcd"))
        return zero();
    return val_int(bn_gcd(a[0].b, a[1].b));
}

static value b_modpow(value *a, interp_stats *st)
{
    if (!need_ints(a, 3, st, "modpow"))
        return zero();
    return val_int(bn_modpow(a[0].b, a[1].b, a[2].b));
}

static value b_isqrt(value *a, interp_stats *st)
{
    if (!need_ints(a, 1, st, "isqrt"))
        return zero();
    return val_int(bn_isqrt(a[0].b));
}

static value b_pow(value *a, interp_stats *st)
{
    if (!need_ints(a, 2, st, "pow"))
        return zero();
    int64_t e = bn_to_i64(a[1].b);
    if (e < 0 || e > 1000000)
        e = 0;
    return val_int(bn_pow(a[0].b, (uint32_t)e));
}

static value b_bits(value *a, interp_stats *st)
{
    if (!need_ints(a, 1, st, "bits"))
        return zero();
    return val_int(bn_from_i64(bn_bitlen(a[0].b)));
}

static value b_abs(value *a, interp_stats *st)
{
    if (!need_ints(a, 1, st, "abs"))
        return zero();
    bn *r = bn_copy(a[0].b);
    if (r->sign < 0)
        r->sign = 1;
    return val_int(r);
}

static value b_shl(value *a, interp_stats *st)
{
    if (!need_ints(a, 2, st, "shl"))
        return zero();
    return val_int(bn_shl(a[0].b, (int)bn_to_i64(a[1].b)));
}

static value b_shr(value *a, interp_stats *st)
{
    if (!need_ints(a, 2, st, "shr"))
        return zero();
    return val_int(bn_shr(a[0].b, (int)bn_to_i64(a[1].b)));
}

static value b_array(value *a, interp_stats *st)
{
    if (!need_ints(a, 1, st, "array"))
        return zero();
    int64_t n = bn_to_i64(a[0].b);
    if (n < 0 || n > 10000000)
        n = 0;
    value v = {V_ARR, NULL, arr_new((int)n)};
    return v;
}

static value b_len(value *a, interp_stats *st)
{
    if (a[0].kind != V_ARR)
        return val_int(bn_from_i64(0));
    return val_int(bn_from_i64(a[0].a->n));
}

static value b_put(value *a, interp_stats *st)
{
    if (!need_ints(a, 1, st, "put"))
        return zero();
    dict_put(a[0].b, a[1]);
    return zero();
}

static value b_get(value *a, interp_stats *st)
{
    if (!need_ints(a, 1, st, "get"))
        return zero();
    dent *e = dict_find(a[0].b, bn_hash(a[0].b));
    return e ? val_copy(e->val) : zero();
}

static value b_has(value *a, interp_stats *st)
{
    if (!need_ints(a, 1, st, "has"))
        return zero();
    return val_int(bn_from_i64(dict_find(a[0].b, bn_hash(a[0].b)) != NULL));
}

static value b_clear(value *a, interp_stats *st)
{
    builtins_reset();
    return zero();
}

static value b_digitsum(value *a, interp_stats *st)
{
    if (!need_ints(a, 1, st, "digitsum"))
        return zero();
    size_t len;
    char *s = bn_to_dec(a[0].b, &len);
    int64_t sum = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] >= '0' && s[i] <= '9')
            sum += s[i] - '0';
    free(s);
    return val_int(bn_from_i64(sum));
}

static value b_ndigits(value *a, interp_stats *st)
{
    if (!need_ints(a, 1, st, "ndigits"))
        return zero();
    size_t len;
    char *s = bn_to_dec(a[0].b, &len);
    if (s[0] == '-')
        len--;
    free(s);
    return val_int(bn_from_i64((int64_t)len));
}

static const builtin builtins[] = {
    {"gcd", 2, b_gcd}, {"modpow", 3, b_modpow}, {"isqrt", 1, b_isqrt},
    {"pow", 2, b_pow}, {"bits", 1, b_bits}, {"abs", 1, b_abs},
    {"shl", 2, b_shl}, {"shr", 2, b_shr}, {"array", 1, b_array},
    {"len", 1, b_len}, {"put", 2, b_put}, {"get", 1, b_get},
    {"has", 1, b_has}, {"clear", 0, b_clear}, {"digitsum", 1, b_digitsum},
    {"ndigits", 1, b_ndigits},
};

#define NBUILTINS ((int)(sizeof(builtins) / sizeof(builtins[0])))

int builtin_index(const char *name, int len)
{
    for (int i = 0; i < NBUILTINS; i++)
        if ((int)strlen(builtins[i].name) == len && memcmp(builtins[i].name, name, (size_t)len) == 0)
            return i;
    return -1;
}

int builtin_arity(int idx) { return builtins[idx].arity; }

value call_builtin(int idx, value *args, int nargs, interp_stats *st)
{
    (void)nargs;
    return builtins[idx].fn(args, st);
}
