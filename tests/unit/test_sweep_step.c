/*
 * test_sweep_step.c - unit tests of each ISA's sweep step (isa_t.sweep_step,
 * the static call-site count's decode of the jumps alone): for every 16-bit
 * RISC-V form, every table row's match with random don't-care bits and
 * random words, it goes on by what decode says (the length, or insn_align
 * where decode fails) and finds a call exactly where decode sets IF_CALL.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "isa.h"
#include "util.h"

/* The step and call decode gives for the first avail bytes of word at pc;
 * returns whether it was a call. */
static bool check_word(const isa_t *isa, uint64_t pc, uint32_t word, size_t avail)
{
    uint8_t bytes[4] = { (uint8_t)word, (uint8_t)(word >> 8), (uint8_t)(word >> 16),
                         (uint8_t)(word >> 24) };
    insn_t in;
    bool ok = isa->decode(pc, bytes, avail, &in);
    unsigned want_step = ok ? in.len : isa->insn_align;
    bool want_call = ok && (in.flags & IF_CALL);
    bool call = !want_call;
    assert_int_equal(isa->sweep_step(pc, bytes, avail, &call), want_step);
    assert_int_equal(call, want_call);
    return call;
}

/* Each row's match with random don't-care bits, then random words. */
static unsigned check_table(const isa_t *isa, uint64_t pc)
{
    uint64_t rng = 0x51ed2701u;
    unsigned calls = 0;
    for (size_t k = 0; k < isa->table_size; k++)
        for (int r = 0; r < 64; r++) {
            const insn_def_t *d = &isa->table[k];
            calls += check_word(isa, pc, d->match | ((uint32_t)splitmix64_next(&rng) & ~d->mask), 4);
        }
    for (int r = 0; r < 200000; r++)
        calls += check_word(isa, pc, (uint32_t)splitmix64_next(&rng), 4);
    return calls;
}

static void rv64_sweep_matches_decode(void **state)
{
    (void)state;
    unsigned calls = check_table(&isa_rv64, 0x10000);
    uint64_t rng = 0x2545f491u;
    for (uint32_t half = 0; half < 0x10000; half++) {      /* all 16-bit forms */
        calls += check_word(&isa_rv64, 0x10002, half | (uint32_t)splitmix64_next(&rng) << 16, 4);
        calls += check_word(&isa_rv64, 0x10002, half, 2);
    }
    for (uint32_t rd = 0; rd < 32; rd++) {                  /* jal, jalr by link register */
        calls += check_word(&isa_rv64, 0x10000, 0x6f | rd << 7 | 0x00100000u, 4);
        calls += check_word(&isa_rv64, 0x10000, 0x67 | rd << 7 | 10u << 15, 4);
        calls += check_word(&isa_rv64, 0x10000, 0x67 | rd << 7 | 1u << 12, 4);   /* funct3 1 */
    }
    check_word(&isa_rv64, 0x10000, 0x0ef, 1);               /* too few bytes */
    assert_true(calls > 0);
}

static void alpha_sweep_matches_decode(void **state)
{
    (void)state;
    assert_true(check_table(&isa_alpha, 0x120000000ull) > 0);
    check_word(&isa_alpha, 0x120000002ull, 0xd3400000u, 4);  /* bsr off alignment */
    check_word(&isa_alpha, 0x120000000ull, 0xd3400000u, 2);  /* too few bytes */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rv64_sweep_matches_decode),
        cmocka_unit_test(alpha_sweep_matches_decode),
    };
    return cmocka_run_group_tests_name("test_sweep_step", tests, NULL, NULL);
}
