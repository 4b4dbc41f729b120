/*
 * atomics.c - differential test: the A extension.  GCC __atomic builtins
 * and C11 <stdatomic.h> on 32/64-bit objects (AMO instructions, with
 * compare-exchange as LR/SC loops), a hand-written masked LR/SC loop for
 * 8/16-bit objects, explicit amomin/amomax/amominu/amomaxu/amoswap/amoor/
 * amoxor via inline asm (including sign extension of .w results), plain
 * LR/SC pairs and fences.  Single-threaded: only the values are checked.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <inttypes.h>

#define AMO(name, insn, T) static T name(T *p, T v) { T old; \
    __asm__ volatile(insn " %0,%2,(%1)" : "=r"(old) : "r"(p), "r"(v) : "memory"); return old; }
AMO(amomin_w, "amomin.w", int32_t) AMO(amomax_w, "amomax.w", int32_t)
AMO(amominu_w, "amominu.w", int32_t) AMO(amomaxu_w, "amomaxu.w", int32_t)
AMO(amomin_d, "amomin.d", int64_t) AMO(amomax_d, "amomax.d", int64_t)
AMO(amominu_d, "amominu.d", int64_t) AMO(amomaxu_d, "amomaxu.d", int64_t)
AMO(amoswap_w, "amoswap.w.aqrl", int32_t) AMO(amoadd_w, "amoadd.w", int32_t)
AMO(amoxor_d, "amoxor.d.aq", int64_t) AMO(amoor_w, "amoor.w.rl", int32_t)

/* GCC 12 does not inline 8/16-bit atomics on RISC-V (it calls libatomic),
 * so do what GCC 13 and Linux do: an LR/SC loop on the aligned word with a
 * mask.  Returns the old value. */
static uint32_t masked_fetch_add(void *p, unsigned bits, uint32_t inc)
{
    uintptr_t a = (uintptr_t)p;
    uint32_t *word = (uint32_t *)(a & ~(uintptr_t)3);
    unsigned shift = (unsigned)(a & 3) * 8;
    uint32_t mask = (bits == 8 ? 0xffu : 0xffffu) << shift, old, tmp, sum;
    __asm__ volatile(
        "1: lr.w.aqrl %0,(%3)\n\t"
        "add %2,%0,%4\n\t"
        "xor %2,%2,%0\n\t"
        "and %2,%2,%5\n\t"
        "xor %1,%0,%2\n\t"
        "sc.w.rl %2,%1,(%3)\n\t"
        "bnez %2,1b"
        : "=&r"(old), "=&r"(tmp), "=&r"(sum)
        : "r"(word), "r"(inc << shift), "r"(mask)
        : "memory");
    return (old & mask) >> shift;
}
static int8_t sub_fetch_add8(int8_t *p, int v) { return (int8_t)masked_fetch_add(p, 8, (uint32_t)v & 0xff); }
static int16_t sub_fetch_add16(int16_t *p, int v) { return (int16_t)masked_fetch_add(p, 16, (uint32_t)v & 0xffff); }

int main(void)
{
    static int64_t d = 10; static int32_t w = -5;
    static int16_t h __attribute__((aligned(8))) = 100; static int8_t bb[4] = { 1, 2, 3, 120 }; int8_t *const bp = &bb[3];
#define b (*bp)
    static uint64_t ud = 0;
    printf("fetch_add d %" PRId64, __atomic_fetch_add(&d, 5, __ATOMIC_SEQ_CST));
    printf(" -> %" PRId64 "\n", d);
    printf("add_fetch w %" PRId32 "\n", __atomic_add_fetch(&w, 7, __ATOMIC_RELAXED));
    printf("fetch_sub h %d", sub_fetch_add16(&h, -300)); printf(" -> %d\n", h);
    printf("fetch_add b %d", sub_fetch_add8(&b, 10)); printf(" -> %d (wraps)\n", b);
    printf("fetch_and d %" PRId64, __atomic_fetch_and(&d, 0xc, __ATOMIC_SEQ_CST)); printf(" -> %" PRId64 "\n", d);
    printf("fetch_or w %d", __atomic_fetch_or(&w, 0x100, __ATOMIC_SEQ_CST)); printf(" -> %d\n", w);
    printf("fetch_xor w %d", __atomic_fetch_xor(&w, 0x7fff, __ATOMIC_SEQ_CST)); printf(" -> %d\n", w);
    printf("exchange d %" PRId64, __atomic_exchange_n(&d, -1, __ATOMIC_SEQ_CST)); printf(" -> %" PRId64 "\n", d);
    int64_t exp = -1;
    printf("cas d ok=%d", __atomic_compare_exchange_n(&d, &exp, 77, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    printf(" d=%" PRId64 " exp=%" PRId64 "\n", d, exp);
    printf("cas d fail=%d", !__atomic_compare_exchange_n(&d, &exp, 88, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    printf(" d=%" PRId64 " exp=%" PRId64 "\n", d, exp);
    int32_t ew = w;
    printf("cas w ok=%d", __atomic_compare_exchange_n(&w, &ew, 1234, 1, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED) || w == 1234);
    printf(" w=%d\n", w);
    for (int i = 0; i < 5; i++) { int8_t o8 = sub_fetch_add8(&b, 100); int16_t o16 = sub_fetch_add16(&h, 20000); printf("sub-word b %d->%d h %d->%d\n", o8, b, o16, h); }
    printf("fetch_or ud %" PRIu64, __atomic_fetch_or(&ud, 1, __ATOMIC_SEQ_CST)); printf(" %" PRIu64 "\n", __atomic_fetch_or(&ud, 1, __ATOMIC_SEQ_CST));

    _Atomic long counter = 0;
    static uint8_t uc = 250;
    atomic_int ai = ATOMIC_VAR_INIT(0);
    for (int i = 0; i < 100000; i++) {
        atomic_fetch_add(&counter, i);
        sub_fetch_add8((int8_t *)&uc, 1);
        int e = atomic_load(&ai);
        while (!atomic_compare_exchange_weak(&ai, &e, e * 3 + 1)) { }
    }
    printf("counter=%ld uc=%u ai=%d\n", atomic_load(&counter), uc, atomic_load(&ai));
    atomic_store_explicit(&counter, 5, memory_order_release);
    printf("load acquire=%ld\n", atomic_load_explicit(&counter, memory_order_acquire));
    atomic_thread_fence(memory_order_seq_cst);
    atomic_flag fl = ATOMIC_FLAG_INIT;
    printf("flag %d %d", atomic_flag_test_and_set(&fl), atomic_flag_test_and_set(&fl));
    atomic_flag_clear(&fl); printf(" %d\n", atomic_flag_test_and_set(&fl));

    int32_t x32 = 5; int64_t x64 = -3;
    int32_t o;
    o = amomin_w(&x32, -9); printf("amomin.w old=%d new=%d\n", o, x32);
    o = amomax_w(&x32, 3); printf("amomax.w old=%d new=%d\n", o, x32);
    o = amominu_w(&x32, -1); printf("amominu.w old=%d new=%d\n", o, x32);
    o = amomaxu_w(&x32, -2); printf("amomaxu.w old=%d new=%d\n", o, x32);
    o = amoswap_w(&x32, 0x7fffffff); printf("amoswap.w old=%d new=%d\n", o, x32);
    o = amoadd_w(&x32, 1); printf("amoadd.w overflow old=%d new=%d\n", o, x32);
    o = amoor_w(&x32, 0xf0); printf("amoor.w old=%d new=%d\n", o, x32);
    int64_t o64;
    o64 = amomin_d(&x64, 2); printf("amomin.d old=%" PRId64 " new=%" PRId64 "\n", o64, x64);
    o64 = amomax_d(&x64, INT64_MIN); printf("amomax.d old=%" PRId64 " new=%" PRId64 "\n", o64, x64);
    o64 = amominu_d(&x64, 7); printf("amominu.d old=%" PRId64 " new=%" PRId64 "\n", o64, x64);
    o64 = amomaxu_d(&x64, -1); printf("amomaxu.d old=%" PRId64 " new=%" PRId64 "\n", o64, x64);
    o64 = amoxor_d(&x64, 0x5555); printf("amoxor.d old=%" PRId64 " new=%" PRId64 "\n", o64, x64);
    /* amo*.w results are sign-extended into the 64-bit register */
    uint32_t u32 = 0x80000000u; uint64_t r;
    __asm__ volatile("amoadd.w %0,%2,(%1)" : "=r"(r) : "r"(&u32), "r"(0ull) : "memory");
    printf("amoadd.w sign-extends: %016" PRIx64 "\n", r);
    __asm__ volatile("lr.w %0,(%1)" : "=r"(r) : "r"(&u32) : "memory");
    printf("lr.w sign-extends: %016" PRIx64 "\n", r);
    /* explicit LR/SC: a successful pair, then an SC with no reservation */
    uint64_t mem = 100, sc;
    __asm__ volatile("lr.d %0,(%2)\n\taddi %0,%0,1\n\tsc.d %1,%0,(%2)" : "=&r"(r), "=&r"(sc) : "r"(&mem) : "memory");
    printf("lr/sc: sc=%" PRIu64 " mem=%" PRIu64 "\n", sc, mem);
    uint64_t other = 7;
    int tries = 0;
    do {
        __asm__ volatile("lr.d.aq %0,(%2)\n\tsc.d.rl %1,%3,(%2)" : "=&r"(r), "=&r"(sc) : "r"(&other), "r"(8ull) : "memory");
        tries++;
    } while (sc != 0 && tries < 100);
    printf("lr/sc loop: ok=%d other=%" PRIu64 "\n", sc == 0, other);
    __asm__ volatile("fence rw,rw\n\tfence.i\n\tfence r,r" ::: "memory");
    printf("fences ok\n");
    return 0;
}
