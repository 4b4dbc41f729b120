/* bigint.c - implementation of the arbitrary-precision integer library used
 * by bigint_interp.  Magnitudes are arrays of 32-bit limbs; multiplication
 * switches from schoolbook to Karatsuba above a threshold, division uses
 * Knuth's algorithm D. */
#include "bigint.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#define KARA_THRESHOLD 24

uint64_t bn_stat_kara, bn_stat_div, bn_stat_alloc;

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "bigint: out of memory\n");
        exit(2);
    }
    return p;
}

bn *bn_new(int cap)
{
    if (cap < 1)
        cap = 1;
    /* header and limbs share one allocation */
    bn *a = xmalloc(sizeof(*a) + (size_t)cap * sizeof(uint32_t));
    a->d = (uint32_t *)(a + 1);
    a->cap = cap;
    a->n = 0;
    a->sign = 0;
    bn_stat_alloc++;
    return a;
}

void bn_free(bn *a)
{
    if (!a)
        return;
    free(a);
}

static void bn_trim(bn *a)
{
    while (a->n > 0 && a->d[a->n - 1] == 0)
        a->n--;
    if (a->n == 0)
        a->sign = 0;
}

bn *bn_copy(const bn *a)
{
    bn *r = bn_new(a->n);
    memcpy(r->d, a->d, (size_t)a->n * sizeof(uint32_t));
    r->n = a->n;
    r->sign = a->sign;
    return r;
}

bn *bn_from_i64(int64_t v)
{
    bn *r = bn_new(2);
    uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    r->d[0] = (uint32_t)m;
    r->d[1] = (uint32_t)(m >> 32);
    r->n = 2;
    r->sign = v < 0 ? -1 : 1;
    bn_trim(r);
    return r;
}

int64_t bn_to_i64(const bn *a)
{
    uint64_t m = 0;
    if (a->n > 0)
        m = a->d[0];
    if (a->n > 1)
        m |= (uint64_t)a->d[1] << 32;
    m &= 0x7fffffffffffffffULL;
    return a->sign < 0 ? -(int64_t)m : (int64_t)m;
}

int bn_is_zero(const bn *a) { return a->n == 0; }

static int mag_cmp(const uint32_t *a, int na, const uint32_t *b, int nb)
{
    if (na != nb)
        return na < nb ? -1 : 1;
    for (int i = na - 1; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

int bn_cmp(const bn *a, const bn *b)
{
    if (a->sign != b->sign)
        return a->sign < b->sign ? -1 : 1;
    int c = mag_cmp(a->d, a->n, b->d, b->n);
    return a->sign < 0 ? -c : c;
}

int bn_bitlen(const bn *a)
{
    if (a->n == 0)
        return 0;
    uint32_t top = a->d[a->n - 1];
    int bits = 0;
    while (top) {
        bits++;
        top >>= 1;
    }
    return (a->n - 1) * 32 + bits;
}

/* r[0..na] = a + b, na >= nb; returns number of limbs written. */
static int limb_add(uint32_t *r, const uint32_t *a, int na, const uint32_t *b, int nb)
{
    uint64_t c = 0;
    int i;
    for (i = 0; i < nb; i++) {
        c += (uint64_t)a[i] + b[i];
        r[i] = (uint32_t)c;
        c >>= 32;
    }
    for (; i < na; i++) {
        c += a[i];
        r[i] = (uint32_t)c;
        c >>= 32;
    }
    r[na] = (uint32_t)c;
    return na + 1;
}

/* r = a - b with |a| >= |b|. */
static void limb_sub(uint32_t *r, const uint32_t *a, int na, const uint32_t *b, int nb)
{
    int64_t br = 0;
    int i;
    for (i = 0; i < nb; i++) {
        int64_t t = (int64_t)a[i] - b[i] - br;
        br = t < 0;
        r[i] = (uint32_t)t;
    }
    for (; i < na; i++) {
        int64_t t = (int64_t)a[i] - br;
        br = t < 0;
        r[i] = (uint32_t)t;
    }
}

/* r[0..rn) += a[0..na), rn >= na, carry propagates within r. */
static void limb_add_into(uint32_t *r, int rn, const uint32_t *a, int na)
{
    uint64_t c = 0;
    int i;
    for (i = 0; i < na; i++) {
        c += (uint64_t)r[i] + a[i];
        r[i] = (uint32_t)c;
        c >>= 32;
    }
    for (; c && i < rn; i++) {
        c += r[i];
        r[i] = (uint32_t)c;
        c >>= 32;
    }
}

/* r[0..rn) -= a[0..na), result known non-negative. */
static void limb_sub_from(uint32_t *r, int rn, const uint32_t *a, int na)
{
    int64_t br = 0;
    int i;
    for (i = 0; i < na; i++) {
        int64_t t = (int64_t)r[i] - a[i] - br;
        br = t < 0;
        r[i] = (uint32_t)t;
    }
    for (; br && i < rn; i++) {
        int64_t t = (int64_t)r[i] - br;
        br = t < 0;
        r[i] = (uint32_t)t;
    }
}

static bn *mag_add_signed(const bn *a, const bn *b, int sign)
{
    if (a->n < b->n) {
        const bn *t = a;
        a = b;
        b = t;
    }
    bn *r = bn_new(a->n + 1);
    r->n = limb_add(r->d, a->d, a->n, b->d, b->n);
    r->sign = sign;
    bn_trim(r);
    return r;
}

static bn *mag_sub_signed(const bn *a, const bn *b, int sign)
{
    int c = mag_cmp(a->d, a->n, b->d, b->n);
    if (c == 0)
        return bn_new(1);
    if (c < 0) {
        const bn *t = a;
        a = b;
        b = t;
        sign = -sign;
    }
    bn *r = bn_new(a->n);
    limb_sub(r->d, a->d, a->n, b->d, b->n);
    r->n = a->n;
    r->sign = sign;
    bn_trim(r);
    return r;
}

bn *bn_add(const bn *a, const bn *b)
{
    if (a->sign == 0)
        return bn_copy(b);
    if (b->sign == 0)
        return bn_copy(a);
    if (a->sign == b->sign)
        return mag_add_signed(a, b, a->sign);
    return mag_sub_signed(a, b, a->sign);
}

bn *bn_neg(const bn *a)
{
    bn *r = bn_copy(a);
    r->sign = -r->sign;
    return r;
}

bn *bn_sub(const bn *a, const bn *b)
{
    if (b->sign == 0)
        return bn_copy(a);
    if (a->sign == 0)
        return bn_neg(b);
    if (a->sign != b->sign)
        return mag_add_signed(a, b, a->sign);
    return mag_sub_signed(a, b, a->sign);
}

static void mul_school(uint32_t *r, const uint32_t *a, int na, const uint32_t *b, int nb)
{
    memset(r, 0, (size_t)(na + nb) * sizeof(uint32_t));
    for (int i = 0; i < na; i++) {
        uint64_t c = 0, ai = a[i];
        if (ai == 0)
            continue;
        for (int j = 0; j < nb; j++) {
            c += ai * b[j] + r[i + j];
            r[i + j] = (uint32_t)c;
            c >>= 32;
        }
        r[i + nb] = (uint32_t)c;
    }
}

static void mag_mul(uint32_t *r, const uint32_t *a, int na, const uint32_t *b, int nb);

/* a is much longer than b: multiply b against nb-sized slices of a. */
static void mul_unbalanced(uint32_t *r, const uint32_t *a, int na, const uint32_t *b, int nb)
{
    uint32_t *tmp = xmalloc((size_t)2 * nb * sizeof(uint32_t));
    memset(r, 0, (size_t)(na + nb) * sizeof(uint32_t));
    for (int i = 0; i < na; i += nb) {
        int len = na - i < nb ? na - i : nb;
        mag_mul(tmp, a + i, len, b, nb);
        limb_add_into(r + i, na + nb - i, tmp, len + nb);
    }
    free(tmp);
}

static void mul_karatsuba(uint32_t *r, const uint32_t *a, int na, const uint32_t *b, int nb)
{
    int m = na / 2;
    int na1 = na - m, nb1 = nb - m;
    int ns = (na1 > m ? na1 : m) + 1;
    int nt = (nb1 > m ? nb1 : m) + 1;
    uint32_t *sa = xmalloc((size_t)(ns + nt + ns + nt) * sizeof(uint32_t));
    uint32_t *sb = sa + ns, *z1 = sb + nt;

    bn_stat_kara++;
    /* z0 into r[0..2m), z2 into r[2m..na+nb) */
    mag_mul(r, a, m, b, m);
    mag_mul(r + 2 * m, a + m, na1, b + m, nb1);
    if (na1 >= m)
        limb_add(sa, a + m, na1, a, m);
    else
        limb_add(sa, a, m, a + m, na1);
    if (nb1 >= m)
        limb_add(sb, b + m, nb1, b, m);
    else
        limb_add(sb, b, m, b + m, nb1);
    mag_mul(z1, sa, ns, sb, nt);
    limb_sub_from(z1, ns + nt, r, 2 * m);
    limb_sub_from(z1, ns + nt, r + 2 * m, na1 + nb1);
    /* z1 fits in na+nb-m limbs; drop the high zero limbs */
    int nz = ns + nt;
    while (nz > 0 && z1[nz - 1] == 0)
        nz--;
    limb_add_into(r + m, na + nb - m, z1, nz);
    free(sa);
}

static void mag_mul(uint32_t *r, const uint32_t *a, int na, const uint32_t *b, int nb)
{
    if (na < nb) {
        const uint32_t *t = a;
        int tn = na;
        a = b;
        na = nb;
        b = t;
        nb = tn;
    }
    if (nb < KARA_THRESHOLD)
        mul_school(r, a, na, b, nb);
    else if (na >= 2 * nb)
        mul_unbalanced(r, a, na, b, nb);
    else
        mul_karatsuba(r, a, na, b, nb);
}

bn *bn_mul(const bn *a, const bn *b)
{
    if (a->n == 0 || b->n == 0)
        return bn_new(1);
    bn *r = bn_new(a->n + b->n);
    mag_mul(r->d, a->d, a->n, b->d, b->n);
    r->n = a->n + b->n;
    r->sign = a->sign * b->sign;
    bn_trim(r);
    return r;
}

/* Divide magnitude by a single limb; returns remainder. */
static uint32_t div_small(uint32_t *q, const uint32_t *a, int na, uint32_t d)
{
    uint64_t rem = 0;
    for (int i = na - 1; i >= 0; i--) {
        uint64_t cur = (rem << 32) | a[i];
        q[i] = (uint32_t)(cur / d);
        rem = cur % d;
    }
    return (uint32_t)rem;
}

static int leading_zeros(uint32_t x)
{
    int n = 0;
    while (!(x & 0x80000000u)) {
        x <<= 1;
        n++;
    }
    return n;
}

/* Knuth algorithm D on normalised copies; q has na-nb+1 limbs, r has nb. */
static void div_knuth(uint32_t *q, uint32_t *r, const uint32_t *a, int na,
                      const uint32_t *b, int nb)
{
    int s = leading_zeros(b[nb - 1]);
    uint32_t *un = xmalloc((size_t)(na + 1 + nb) * sizeof(uint32_t));
    uint32_t *vn = un + na + 1;
    for (int i = nb - 1; i > 0; i--)
        vn[i] = s ? (b[i] << s) | (b[i - 1] >> (32 - s)) : b[i];
    vn[0] = b[0] << s;
    un[na] = s ? a[na - 1] >> (32 - s) : 0;
    for (int i = na - 1; i > 0; i--)
        un[i] = s ? (a[i] << s) | (a[i - 1] >> (32 - s)) : a[i];
    un[0] = a[0] << s;

    for (int j = na - nb; j >= 0; j--) {
        uint64_t num = ((uint64_t)un[j + nb] << 32) | un[j + nb - 1];
        uint64_t qhat = num / vn[nb - 1];
        uint64_t rhat = num % vn[nb - 1];
        while (qhat >= (1ULL << 32) ||
               (nb > 1 && qhat * vn[nb - 2] > ((rhat << 32) | un[j + nb - 2]))) {
            qhat--;
            rhat += vn[nb - 1];
            if (rhat >= (1ULL << 32))
                break;
        }
        int64_t borrow = 0;
        uint64_t carry = 0;
        for (int i = 0; i < nb; i++) {
            uint64_t p = qhat * vn[i] + carry;
            carry = p >> 32;
            int64_t t = (int64_t)un[i + j] - (int64_t)(uint32_t)p - borrow;
            un[i + j] = (uint32_t)t;
            borrow = t < 0;
        }
        int64_t t = (int64_t)un[j + nb] - (int64_t)carry - borrow;
        un[j + nb] = (uint32_t)t;
        if (t < 0) {
            qhat--;
            uint64_t c = 0;
            for (int i = 0; i < nb; i++) {
                c += (uint64_t)un[i + j] + vn[i];
                un[i + j] = (uint32_t)c;
                c >>= 32;
            }
            un[j + nb] += (uint32_t)c;
        }
        q[j] = (uint32_t)qhat;
    }
    for (int i = 0; i < nb; i++)
        r[i] = s ? (un[i] >> s) | (un[i + 1] << (32 - s)) : un[i];
    free(un);
}

int bn_divmod(const bn *a, const bn *b, bn **qp, bn **rp)
{
    if (b->n == 0)
        return -1;
    bn_stat_div++;
    bn *q, *r;
    if (mag_cmp(a->d, a->n, b->d, b->n) < 0) {
        q = bn_new(1);
        r = bn_copy(a);
    } else if (b->n == 1) {
        q = bn_new(a->n);
        uint32_t rem = div_small(q->d, a->d, a->n, b->d[0]);
        q->n = a->n;
        q->sign = a->sign * b->sign;
        r = bn_from_i64(rem);
        if (r->n)
            r->sign = a->sign;
    } else {
        q = bn_new(a->n - b->n + 1);
        r = bn_new(b->n);
        div_knuth(q->d, r->d, a->d, a->n, b->d, b->n);
        q->n = a->n - b->n + 1;
        q->sign = a->sign * b->sign;
        r->n = b->n;
        r->sign = a->sign;
    }
    bn_trim(q);
    bn_trim(r);
    if (qp)
        *qp = q;
    else
        bn_free(q);
    if (rp)
        *rp = r;
    else
        bn_free(r);
    return 0;
}

bn *bn_shl(const bn *a, int bits)
{
    if (a->n == 0 || bits <= 0)
        return bits < 0 ? bn_shr(a, -bits) : bn_copy(a);
    int limbs = bits / 32, s = bits % 32;
    bn *r = bn_new(a->n + limbs + 1);
    memset(r->d, 0, (size_t)r->cap * sizeof(uint32_t));
    for (int i = 0; i < a->n; i++) {
        uint64_t v = (uint64_t)a->d[i] << s;
        r->d[i + limbs] |= (uint32_t)v;
        r->d[i + limbs + 1] |= (uint32_t)(v >> 32);
    }
    r->n = a->n + limbs + 1;
    r->sign = a->sign;
    bn_trim(r);
    return r;
}

bn *bn_shr(const bn *a, int bits)
{
    int limbs = bits / 32, s = bits % 32;
    if (limbs >= a->n)
        return bn_new(1);
    int n = a->n - limbs;
    bn *r = bn_new(n);
    for (int i = 0; i < n; i++) {
        uint64_t v = a->d[i + limbs];
        if (i + limbs + 1 < a->n)
            v |= (uint64_t)a->d[i + limbs + 1] << 32;
        r->d[i] = (uint32_t)(v >> s);
    }
    r->n = n;
    r->sign = a->sign;
    bn_trim(r);
    return r;
}

bn *bn_gcd(const bn *a, const bn *b)
{
    bn *x = bn_copy(a), *y = bn_copy(b);
    if (x->sign < 0)
        x->sign = 1;
    if (y->sign < 0)
        y->sign = 1;
    while (y->n) {
        bn *r;
        bn_divmod(x, y, NULL, &r);
        bn_free(x);
        x = y;
        y = r;
    }
    bn_free(y);
    return x;
}

static bn *mulmod(const bn *a, const bn *b, const bn *m)
{
    bn *p = bn_mul(a, b), *r;
    bn_divmod(p, m, NULL, &r);
    bn_free(p);
    if (r->sign < 0) {
        bn *t = bn_add(r, m);
        bn_free(r);
        r = t;
    }
    return r;
}

bn *bn_modpow(const bn *base, const bn *exp, const bn *mod)
{
    if (mod->n == 0)
        return bn_new(1);
    bn *result = bn_from_i64(1), *b;
    bn_divmod(base, mod, NULL, &b);
    if (b->sign < 0) {
        bn *t = bn_add(b, mod);
        bn_free(b);
        b = t;
    }
    int bits = bn_bitlen(exp);
    for (int i = bits - 1; i >= 0; i--) {
        bn *t = mulmod(result, result, mod);
        bn_free(result);
        result = t;
        if ((exp->d[i / 32] >> (i % 32)) & 1) {
            t = mulmod(result, b, mod);
            bn_free(result);
            result = t;
        }
    }
    bn_free(b);
    if (bn_cmp(result, mod) >= 0) {
        bn *r;
        bn_divmod(result, mod, NULL, &r);
        bn_free(result);
        result = r;
    }
    return result;
}

bn *bn_pow(const bn *base, uint32_t e)
{
    bn *result = bn_from_i64(1), *b = bn_copy(base);
    while (e) {
        if (e & 1) {
            bn *t = bn_mul(result, b);
            bn_free(result);
            result = t;
        }
        e >>= 1;
        if (e) {
            bn *t = bn_mul(b, b);
            bn_free(b);
            b = t;
        }
    }
    bn_free(b);
    return result;
}

bn *bn_isqrt(const bn *a)
{
    if (a->sign <= 0)
        return bn_new(1);
    /* Newton iteration from a power of two above the root. */
    bn *one = bn_from_i64(1);
    bn *x = bn_shl(one, (bn_bitlen(a) + 2) / 2);
    bn_free(one);
    for (;;) {
        bn *q, *s, *y;
        bn_divmod(a, x, &q, NULL);
        s = bn_add(x, q);
        y = bn_shr(s, 1);
        bn_free(q);
        bn_free(s);
        if (bn_cmp(y, x) >= 0) {
            bn_free(y);
            return x;
        }
        bn_free(x);
        x = y;
    }
}

char *bn_to_dec(const bn *a, size_t *len)
{
    int chunks = a->n * 10 / 9 + 2;
    uint32_t *parts = xmalloc((size_t)chunks * sizeof(uint32_t));
    uint32_t *t = xmalloc((size_t)(a->n + 1) * sizeof(uint32_t));
    int n = a->n, np = 0;
    memcpy(t, a->d, (size_t)n * sizeof(uint32_t));
    while (n > 0) {
        parts[np++] = div_small(t, t, n, 1000000000u);
        while (n > 0 && t[n - 1] == 0)
            n--;
    }
    char *s = xmalloc((size_t)np * 9 + 3);
    size_t pos = 0;
    if (a->sign < 0)
        s[pos++] = '-';
    if (np == 0)
        s[pos++] = '0';
    for (int i = np - 1; i >= 0; i--)
        pos += (size_t)sprintf(s + pos, i == np - 1 ? "%u" : "%09u", parts[i]);
    s[pos] = 0;
    free(parts);
    free(t);
    if (len)
        *len = pos;
    return s;
}

bn *bn_from_dec(const char *s, size_t len)
{
    bn *r = bn_new((int)(len / 9) + 2);
    r->n = 0;
    for (size_t i = 0; i < len; i++) {
        uint64_t c = (uint64_t)(s[i] - '0');
        for (int j = 0; j < r->n; j++) {
            c += (uint64_t)r->d[j] * 10;
            r->d[j] = (uint32_t)c;
            c >>= 32;
        }
        if (c)
            r->d[r->n++] = (uint32_t)c;
    }
    r->sign = 1;
    bn_trim(r);
    return r;
}

uint64_t bn_hash(const bn *a)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)(a->sign + 1);
    for (int i = 0; i < a->n; i++) {
        h ^= a->d[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}
