/*
 * int_arith.c - differential test: integer arithmetic edge cases on RV64.
 * Covers wrap-around, division by zero and INT_MIN/-1 (RISC-V defines the
 * results instead of trapping), mulh/mulhsu/mulhu, shift amounts that are
 * masked to 6 (or 5 for W ops) bits, and sign extension of 32-bit W ops.
 * The interesting operations are done with inline asm so the compiler
 * cannot fold them.
 */
#include <stdint.h>
#include <stdio.h>
#include <inttypes.h>

#define R3(op) static uint64_t op##_(uint64_t a, uint64_t b) { uint64_t r; \
    __asm__ volatile(#op " %0,%1,%2" : "=r"(r) : "r"(a), "r"(b)); return r; }
R3(add) R3(sub) R3(mul) R3(mulh) R3(mulhsu) R3(mulhu)
R3(div) R3(divu) R3(rem) R3(remu)
R3(addw) R3(subw) R3(mulw) R3(divw) R3(divuw) R3(remw) R3(remuw)
R3(sll) R3(srl) R3(sra) R3(sllw) R3(srlw) R3(sraw)
R3(slt) R3(sltu) R3(and) R3(or) R3(xor)

typedef uint64_t (*op_fn)(uint64_t, uint64_t);
static const struct { const char *name; op_fn fn; } ops[] = {
    {"add", add_}, {"sub", sub_}, {"mul", mul_}, {"mulh", mulh_},
    {"mulhsu", mulhsu_}, {"mulhu", mulhu_}, {"div", div_}, {"divu", divu_},
    {"rem", rem_}, {"remu", remu_}, {"addw", addw_}, {"subw", subw_},
    {"mulw", mulw_}, {"divw", divw_}, {"divuw", divuw_}, {"remw", remw_},
    {"remuw", remuw_}, {"sll", sll_}, {"srl", srl_}, {"sra", sra_},
    {"sllw", sllw_}, {"srlw", srlw_}, {"sraw", sraw_}, {"slt", slt_},
    {"sltu", sltu_}, {"and", and_}, {"or", or_}, {"xor", xor_},
};

static const uint64_t vals[] = {
    0, 1, 2, 3, 7, 31, 32, 33, 63, 64, 65, 127,
    0xffffffffffffffffull, 0xfffffffffffffffeull,
    0x7fffffffffffffffull, 0x8000000000000000ull,
    0x000000007fffffffull, 0x0000000080000000ull, 0x00000000ffffffffull,
    0xffffffff80000000ull, 0xffffffff7fffffffull, 0x0000000100000000ull,
    0x123456789abcdef0ull, 0xfedcba9876543210ull, 0x5555555555555555ull,
    0xaaaaaaaaaaaaaaaaull, 0x00000000deadbeefull, 0xffffffffffff8000ull,
};
#define NV (sizeof vals / sizeof vals[0])

int main(void)
{
    uint64_t grand = 0;
    for (unsigned o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        uint64_t h = 0xcbf29ce484222325ull;
        for (unsigned i = 0; i < NV; i++)
            for (unsigned j = 0; j < NV; j++) {
                uint64_t r = ops[o].fn(vals[i], vals[j]);
                h = (h ^ r) * 0x100000001b3ull;
            }
        printf("%-7s hash %016" PRIx64 "\n", ops[o].name, h);
        grand ^= h;
    }
    /* spelled-out corner cases */
    int64_t mn = INT64_MIN;
    printf("div  INT64_MIN/-1 = %" PRId64 "\n", (int64_t)div_(mn, -1));
    printf("rem  INT64_MIN%%-1 = %" PRId64 "\n", (int64_t)rem_(mn, -1));
    printf("div  5/0 = %" PRId64 "\n", (int64_t)div_(5, 0));
    printf("divu 5/0 = %" PRIx64 "\n", divu_(5, 0));
    printf("rem  -5%%0 = %" PRId64 "\n", (int64_t)rem_(-5, 0));
    printf("remu 5%%0 = %" PRIu64 "\n", remu_(5, 0));
    printf("divw INT32_MIN/-1 = %" PRId64 "\n", (int64_t)divw_(0x80000000u, -1));
    printf("remw INT32_MIN%%-1 = %" PRId64 "\n", (int64_t)remw_(0x80000000u, -1));
    printf("divw 7/0 = %" PRId64 "\n", (int64_t)divw_(7, 0));
    printf("divuw 7/0 = %" PRIx64 "\n", divuw_(7, 0));
    printf("remuw 0x80000007%%0 = %" PRIx64 "\n", remuw_(0x80000007u, 0));
    printf("div -7/2 = %" PRId64 " rem %" PRId64 "\n", (int64_t)div_(-7, 2), (int64_t)rem_(-7, 2));
    printf("div 7/-2 = %" PRId64 " rem %" PRId64 "\n", (int64_t)div_(7, -2), (int64_t)rem_(7, -2));
    printf("mulh  -1*-1 = %" PRIx64 "\n", mulh_(-1, -1));
    printf("mulhu -1*-1 = %" PRIx64 "\n", mulhu_(-1, -1));
    printf("mulhsu -1*-1 = %" PRIx64 "\n", mulhsu_(-1, -1));
    printf("mulhsu 5*-1 = %" PRIx64 "\n", mulhsu_(5, -1));
    printf("mulh INT64_MIN*INT64_MIN = %" PRIx64 "\n", mulh_(mn, mn));
    printf("sll 1<<64 = %" PRIx64 " 1<<65 = %" PRIx64 "\n", sll_(1, 64), sll_(1, 65));
    printf("sra min>>127 = %" PRIx64 "\n", sra_(mn, 127));
    printf("sllw 1<<31 = %" PRIx64 " 1<<32 = %" PRIx64 "\n", sllw_(1, 31), sllw_(1, 32));
    printf("sraw 0x80000000>>33 = %" PRIx64 "\n", sraw_(0x80000000u, 33));
    printf("srlw 0xffffffff80000000>>0 = %" PRIx64 "\n", srlw_(0xffffffff80000000ull, 0));
    printf("addw 0x7fffffff+1 = %" PRIx64 "\n", addw_(0x7fffffff, 1));
    printf("subw 0x0-1 (upper garbage) = %" PRIx64 "\n", subw_(0x1234567800000000ull, 1));
    printf("mulw 0x10000*0x10000 = %" PRIx64 "\n", mulw_(0x10000, 0x10000));
    uint64_t r;
    __asm__ volatile("addiw %0,%1,-1" : "=r"(r) : "r"(0x100000000ull)); printf("addiw = %" PRIx64 "\n", r);
    __asm__ volatile("slliw %0,%1,31" : "=r"(r) : "r"(3ull)); printf("slliw = %" PRIx64 "\n", r);
    __asm__ volatile("srliw %0,%1,4" : "=r"(r) : "r"(0xffffffffull)); printf("srliw = %" PRIx64 "\n", r);
    __asm__ volatile("sraiw %0,%1,4" : "=r"(r) : "r"(0x80000000ull)); printf("sraiw = %" PRIx64 "\n", r);
    __asm__ volatile("srai %0,%1,63" : "=r"(r) : "r"(0x8000000000000000ull)); printf("srai = %" PRIx64 "\n", r);
    __asm__ volatile("lui %0,0x80000" : "=r"(r)); printf("lui 0x80000 = %" PRIx64 "\n", r);
    __asm__ volatile("sltiu %0,%1,-1" : "=r"(r) : "r"(5ull)); printf("sltiu 5<-1 = %" PRIu64 "\n", r);
    __asm__ volatile("slti %0,%1,-1" : "=r"(r) : "r"(5ull)); printf("slti 5<-1 = %" PRIu64 "\n", r);
    __asm__ volatile("xori %0,%1,-1" : "=r"(r) : "r"(0x1234ull)); printf("xori = %" PRIx64 "\n", r);
    /* C-level wrap via unsigned arithmetic */
    volatile uint32_t u32 = 0xffffffffu; volatile uint8_t u8 = 250; volatile int16_t s16 = 32767;
    printf("u32+1=%u u8+10=%u s16+1=%d\n", (unsigned)(uint32_t)(u32 + 1), (unsigned)(uint8_t)(u8 + 10), (int)(int16_t)(s16 + 1));
    /* sign/zero extension of loads */
    volatile int8_t b = -3; volatile uint16_t hw = 0xfffe; volatile int32_t w = -100000;
    printf("lb=%" PRId64 " lhu=%" PRIu64 " lw=%" PRId64 "\n", (int64_t)b, (uint64_t)hw, (int64_t)w);
    printf("grand %016" PRIx64 "\n", grand);
    return 0;
}
