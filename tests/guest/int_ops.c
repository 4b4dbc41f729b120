/*
 * int_ops.c - integer code as compilers emit it, for differential tests of
 * the integer front-ends (on Alpha: byte/word access by ldq_u/ext/ins/msk
 * or BWX, unaligned access, division by libc routines and by umulh magic,
 * cmov, jump tables, calls through pointers, LL/SC atomics, glibc's string
 * routines built on cmpbge/zap).  Portable C with deterministic output.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t checksum;

static void mix(const char *what, uint64_t v)
{
    checksum = (checksum ^ v) * 0x100000001b3ull;
    printf("%-22s %016llx\n", what, (unsigned long long)v);
}

/* ---- bytes and halfwords ------------------------------------------------- */
struct small { signed char c; short s; unsigned char u; int i; signed char sc; };

static uint64_t bytes_and_halves(void)
{
    static struct small a[37];
    uint64_t h = 0;
    for (int k = 0; k < 37; k++) {
        a[k].c = (signed char)(k * 7);
        a[k].s = (short)(k * -1234);
        a[k].u = (unsigned char)(200 + k);
        a[k].i = k * 100003;
        a[k].sc = (signed char)(k * 13 - 100);
    }
    for (int k = 36; k >= 0; k--)
        h = h * 31 + (uint64_t)(a[k].c + a[k].s + a[k].u + a[k].i + a[k].sc);
    return h;
}

/* FNV-1a over every alignment of a buffer. */
static uint64_t fnv_bytes(void)
{
    unsigned char buf[300];
    for (int k = 0; k < 300; k++) buf[k] = (unsigned char)(k * k + 3);
    uint64_t h = 0xcbf29ce484222325ull;
    for (int off = 0; off < 8; off++)
        for (int k = off; k < 290; k++) h = (h ^ buf[k]) * 0x100000001b3ull;
    return h;
}

/* ---- unaligned access ------------------------------------------------------ */
struct __attribute__((packed)) packed { char tag; uint64_t q; uint32_t l; uint16_t w; };

static uint64_t unaligned(void)
{
    static struct packed p[9];
    uint64_t h = 0;
    for (int k = 0; k < 9; k++) {
        p[k].tag = (char)k;
        p[k].q = 0x0123456789abcdefull * (uint64_t)(k + 1);
        p[k].l = 0x89abcdefu + (uint32_t)k;
        p[k].w = (uint16_t)(0xfedc - k);
    }
    for (int k = 0; k < 9; k++) h = h * 3 + p[k].q + p[k].l + p[k].w + (uint64_t)p[k].tag;
    unsigned char raw[32];
    for (int k = 0; k < 32; k++) raw[k] = (unsigned char)(0x11 * k);
    for (int off = 0; off < 8; off++) {
        uint64_t q; uint32_t l; uint16_t w;
        memcpy(&q, raw + off, 8); memcpy(&l, raw + off + 8, 4); memcpy(&w, raw + off + 12, 2);
        h = h * 5 + q + l + w;
    }
    return h;
}

/* ---- arithmetic ---------------------------------------------------------------- */
static uint64_t division(void)
{
    volatile int64_t den[] = { 1, -1, 3, -7, 10, 1000003, INT32_MAX, -65536, 1LL << 40 };
    int64_t nums[] = { 0, 1, -1, 123456789, -987654321012LL, INT64_MAX, INT64_MIN + 1 };
    uint64_t h = 0;
    for (size_t a = 0; a < sizeof nums / sizeof nums[0]; a++)
        for (size_t b = 0; b < sizeof den / sizeof den[0]; b++) {
            int64_t n = nums[a], d = den[b];
            h = h * 7 + (uint64_t)(n / d) + (uint64_t)(n % d);
            h += (uint64_t)n / (uint64_t)d + (uint64_t)n % (uint64_t)d;
            h += (uint64_t)((int32_t)n / (int32_t)(d | 1)) + (uint32_t)n % ((uint32_t)d | 1);
            h ^= (uint64_t)(n / 10) + (uint64_t)(n % 1000) + (uint64_t)n / 7;   /* by constants */
        }
    return h;
}

static uint64_t multiply(void)
{
    uint64_t h = 0, x = 0x9e3779b97f4a7c15ull;
    for (int k = 0; k < 200; k++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        unsigned __int128 p = (unsigned __int128)x * (x >> 3);
        __int128 s = (__int128)(int64_t)x * (int64_t)(x << 5);
        h += (uint64_t)(p >> 64) ^ (uint64_t)p ^ (uint64_t)(s >> 64);
        h += (uint64_t)((int32_t)x * (int32_t)(x >> 32));
    }
    return h;
}

static uint64_t bits(void)
{
    uint64_t h = 0, x = 1;
    for (int k = 0; k < 130; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t y = x >> (k % 64);
        h += (uint64_t)__builtin_popcountll(y) + (y ? (uint64_t)__builtin_clzll(y) : 99) +
             (y ? (uint64_t)__builtin_ctzll(y) : 77);
        h ^= (x << (k & 63)) | (x >> ((64 - k) & 63));
        h += (uint64_t)((int64_t)x >> (k & 63)) + (uint64_t)(int8_t)x + (uint64_t)(int16_t)x +
             (uint64_t)(int32_t)x;
    }
    return h;
}

static uint64_t overflow_and_compare(void)
{
    uint64_t h = 0;
    int64_t v[] = { 0, 1, -1, INT64_MAX, INT64_MIN, 42, -42, INT32_MAX, INT32_MIN };
    for (size_t a = 0; a < 9; a++)
        for (size_t b = 0; b < 9; b++) {
            int64_t r;
            int32_t r32;
            h = h * 3 + (uint64_t)__builtin_add_overflow(v[a], v[b], &r) + (uint64_t)r;
            h = h * 3 + (uint64_t)__builtin_mul_overflow(v[a], v[b], &r) + (uint64_t)r;
            h = h * 3 + (uint64_t)__builtin_sub_overflow((int32_t)v[a], (int32_t)v[b], &r32);
            h += (v[a] < v[b]) + 2 * ((uint64_t)v[a] < (uint64_t)v[b]) + 4 * (v[a] <= v[b]);
            h += v[a] > v[b] ? (uint64_t)v[a] : (uint64_t)v[b];                /* cmov */
        }
    return h;
}

/* ---- control ------------------------------------------------------------------------ */
static int classify(int k)
{
    switch (k) {
    case 0: return 11; case 1: return 22; case 2: return 35; case 3: return 47;
    case 4: return 51; case 5: return 68; case 6: return 70; case 7: return 83;
    case 9: return 99; case 12: return 120; default: return -1;
    }
}

static uint64_t fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

typedef uint64_t (*op_fn)(uint64_t, uint64_t);
static uint64_t op_add(uint64_t a, uint64_t b) { return a + b; }
static uint64_t op_xor(uint64_t a, uint64_t b) { return a ^ b; }
static uint64_t op_rot(uint64_t a, uint64_t b) { return a << (b & 63) | a >> (-b & 63); }

static uint64_t control(void)
{
    uint64_t h = 0;
    for (int k = 0; k < 16; k++) h = h * 13 + (uint64_t)classify(k);
    h += fib(22);
    static const op_fn ops[] = { op_add, op_xor, op_rot };
    for (int k = 0; k < 60; k++) h = ops[k % 3](h, (uint64_t)k * 0x1234567);
    return h;
}

static jmp_buf jb;
static int depth_reached;
static volatile int dive_limit = 25;
static void dive(int depth)
{
    if (depth >= dive_limit) { depth_reached = depth; longjmp(jb, depth); }
    if (depth < 1000) dive(depth + 1);
    depth_reached = -1;                         /* not reached */
}

/* ---- atomics, library ------------------------------------------------------------------ */
static uint64_t atomics(void)
{
    static long counter;
    static int small_counter;
    static unsigned int flag_words[8];
    long expected = 0;
    for (int k = 0; k < 100; k++) __atomic_fetch_add(&counter, k, __ATOMIC_SEQ_CST);
    for (int k = 0; k < 50; k++) __atomic_fetch_sub(&small_counter, 3, __ATOMIC_RELAXED);
    __atomic_compare_exchange_n(&counter, &expected, 7, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    uint64_t h = (uint64_t)counter * 1000 + (uint64_t)expected + (uint64_t)(int64_t)small_counter;
    expected = 4950;
    h += __atomic_compare_exchange_n(&counter, &expected, 7, false, __ATOMIC_SEQ_CST,
                                     __ATOMIC_SEQ_CST);
    h += (uint64_t)__atomic_exchange_n(&counter, 99, __ATOMIC_SEQ_CST) * 3 + (uint64_t)counter;
    for (int k = 0; k < 8; k++) h += __atomic_fetch_or(&flag_words[k], 1u << (k * 4), __ATOMIC_SEQ_CST);
    for (int k = 0; k < 8; k++) h = h * 2 + flag_words[k];
    return h;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int64_t sign(int v) { return (v > 0) - (v < 0); }

static uint64_t library(void)
{
    int64_t v[257];
    uint64_t x = 88172645463325252ull, h = 0;
    for (int k = 0; k < 257; k++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; v[k] = (int64_t)x >> (k % 40); }
    qsort(v, 257, sizeof v[0], cmp_i64);
    for (int k = 0; k < 257; k++) h = h * 31 + (uint64_t)v[k];
    int64_t key = v[100];
    h += (uint64_t)((int64_t *)bsearch(&key, v, 257, sizeof v[0], cmp_i64) - v);

    char buf[200], other[200];
    memset(other, '#', sizeof other);
    for (int off = 0; off < 8; off++)
        for (int len = 0; len < 70; len += 3) {
            memset(buf, 'a' + off, sizeof buf);
            buf[off + len] = '\0';
            h = h * 7 + strlen(buf + off);
            memcpy(other + (7 - off), buf + off, (size_t)len + 1);
            h += (uint64_t)sign(strcmp(other + (7 - off), buf + off)) + (strchr(buf + off, 'z') != NULL);
            memmove(buf + off + 1, buf + off, (size_t)len);
            h += (uint64_t)(unsigned char)buf[off + len / 2] + (uint64_t)sign(memcmp(buf, other, 5));
            h += (uint64_t)(memchr(buf, '\0', sizeof buf) ? 1 : 0);
        }
    char text[128];
    int n = snprintf(text, sizeof text, "%ld %lu %x %o %lld|%5d|%-4d|%c", -1234567890123L,
                     18446744073709551615UL, 0xbeefu, 0777u, LLONG_MIN, -42, 7, 'q');
    printf("%s (%d)\n", text, n);
    h += strtoull("123456789012345", NULL, 10) + (uint64_t)strtol("-zz", NULL, 36) + (uint64_t)atoi("-77");
    return h;
}

int main(void)
{
    mix("bytes_and_halves", bytes_and_halves());
    mix("fnv_bytes", fnv_bytes());
    mix("unaligned", unaligned());
    mix("division", division());
    mix("multiply", multiply());
    mix("bits", bits());
    mix("overflow_and_compare", overflow_and_compare());
    mix("control", control());
    int r = setjmp(jb);
    if (r == 0) dive(0);
    mix("longjmp", (uint64_t)r * 100 + (uint64_t)depth_reached);
    mix("atomics", atomics());
    mix("library", library());
    printf("checksum %016llx\n", (unsigned long long)checksum);
    return 0;
}
