/* bigint.h - arbitrary-precision signed integers for the bigint_interp
 * workload: sign-magnitude numbers with 32-bit limbs, schoolbook and
 * Karatsuba multiplication, Knuth division, gcd, modpow and decimal I/O. */
#ifndef BIGINT_H
#define BIGINT_H

#include <stdint.h>
#include <stddef.h>

typedef struct bn {
    int sign;        /* -1, 0 or +1 */
    int n;           /* number of used limbs (0 for zero) */
    int cap;         /* allocated limbs */
    uint32_t *d;     /* little-endian limbs */
} bn;

bn *bn_new(int cap);
void bn_free(bn *a);
bn *bn_copy(const bn *a);
bn *bn_from_i64(int64_t v);
int64_t bn_to_i64(const bn *a);
int bn_is_zero(const bn *a);
int bn_cmp(const bn *a, const bn *b);
int bn_bitlen(const bn *a);

bn *bn_add(const bn *a, const bn *b);
bn *bn_sub(const bn *a, const bn *b);
bn *bn_neg(const bn *a);
bn *bn_mul(const bn *a, const bn *b);
/* Truncating division (C semantics); returns -1 on division by zero. */
int bn_divmod(const bn *a, const bn *b, bn **q, bn **r);
bn *bn_shl(const bn *a, int bits);
bn *bn_shr(const bn *a, int bits);
bn *bn_gcd(const bn *a, const bn *b);
bn *bn_modpow(const bn *base, const bn *exp, const bn *mod);
bn *bn_isqrt(const bn *a);
bn *bn_pow(const bn *base, uint32_t e);

/* Decimal conversion; the string is malloc'ed. */
char *bn_to_dec(const bn *a, size_t *len);
bn *bn_from_dec(const char *s, size_t len);
uint64_t bn_hash(const bn *a);

/* Statistics gathered for the summary. */
extern uint64_t bn_stat_kara, bn_stat_div, bn_stat_alloc;

#endif
