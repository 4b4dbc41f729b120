/*
 * test_runtime.c - unit tests (cmocka) for the guest runtime's handler
 * frames (sim/runtime.c): entering a handler with arguments switches to the
 * runtime's address space, hps.ret pops the frame and tells its client, a
 * nested call saves the DISE registers it overwrites and gets a stack below
 * the interrupted handler's, hps.flush goes to the client on top, and the
 * special instructions are illegal outside a frame or without the hook;
 * hps.ldp / hps.stp read and write the program's memory, not the runtime's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "core_loop.h"
#include "mem.h"
#include "runtime.h"

#define PROG_PC   0x10000ull
#define ENTRY_A   (RUNTIME_BASE + 0x100)
#define ENTRY_B   (RUNTIME_BASE + 0x200)
#define ENTRY_C   (RUNTIME_BASE + 0x300)
#define PROG_DATA 0x20000ull
#define HPS_LDP_A0_A1 0x0005f50bu        /* hps.ldp a0, a1 (funct3 7)          */
#define HPS_STP_A1_A2 0x02c5f00bu        /* hps.stp a1, a2 (funct3 7, funct7 1) */
#define STACK_TOP (RUNTIME_BASE + 0x4000)
#define HPS_RET   0x0000200bu
#define HPS_FLUSH 0x0000300bu
#define HPS_NOTIFY_A0 0x0005400bu        /* hps.notify a0 */
#define SP 2

typedef struct counts { int returned, flushed; } counts_t;

static void on_return(void *ctx, cpu_t *c) { (void)c; ((counts_t *)ctx)->returned++; }
static void on_flush(void *ctx, cpu_t *c) { (void)c; ((counts_t *)ctx)->flushed++; }

typedef struct fixture {
    mem_t *prog, *rtmem;
    runtime_t *rt;
    cpu_t cpu;
    counts_t a, b;
    runtime_client_t client_a, client_b;
} fixture_t;

static int setup(void **state)
{
    fixture_t *f = calloc(1, sizeof *f);
    f->prog = mem_new();
    f->rtmem = mem_new();
    assert_true(mem_map(f->prog, PROG_PC, 0x1000, MEM_PROT_READ | MEM_PROT_EXEC));
    assert_true(mem_map(f->rtmem, RUNTIME_BASE, 0x1000, MEM_PROT_READ | MEM_PROT_EXEC));
    assert_true(mem_map(f->rtmem, STACK_TOP - 0x2000, 0x2000, MEM_PROT_READ | MEM_PROT_WRITE));
    const uint32_t a[] = { HPS_FLUSH, HPS_NOTIFY_A0, HPS_RET }, b[] = { HPS_RET };
    assert_true(mem_write(f->rtmem, ENTRY_A, a, sizeof a));
    assert_true(mem_write(f->rtmem, ENTRY_B, b, sizeof b));
    const uint32_t cc[] = { HPS_LDP_A0_A1, HPS_STP_A1_A2, HPS_LDP_A0_A1, HPS_RET };
    assert_true(mem_write(f->rtmem, ENTRY_C, cc, sizeof cc));
    assert_true(mem_map(f->prog, PROG_DATA, 0x1000, MEM_PROT_READ | MEM_PROT_WRITE));
    f->rt = runtime_wrap(&isa_rv64, f->rtmem, STACK_TOP);
    cpu_init(&f->cpu, &isa_rv64, f->prog);
    runtime_attach(f->rt, &f->cpu);
    f->cpu.pc = PROG_PC;
    f->client_a = (runtime_client_t){ .name = "A", .returned = on_return, .flush = on_flush,
                                      .ctx = &f->a };
    f->client_b = (runtime_client_t){ .name = "B", .returned = on_return, .ctx = &f->b };
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture_t *f = *state;
    runtime_free(f->rt);
    mem_free(f->prog);
    free(f);
    return 0;
}

/* Execute the instruction at pc; the stop reason (STOP_NONE if it ran). */
static stop_reason_t step(cpu_t *c)
{
    jmp_buf jb;
    c->stop = STOP_NONE;
    c->stop_jmp = &jb;
    c->mem->fault_jmp = &jb;
    if (!setjmp(jb)) {
        uint64_t pc = c->pc;
        core_step(c, cpu_fetch_decode(c, pc), pc);
    }
    c->stop_jmp = NULL;
    return c->stop;
}

static uint64_t dreg(const cpu_t *c, unsigned n) { return c->reg[REG_DISE0 + n]; }

static void test_call_and_return(void **state)
{
    fixture_t *f = *state;
    cpu_t *c = &f->cpu;
    assert_int_equal(dreg(c, DREG_HANDLER_SP), STACK_TOP);
    const uint64_t args[] = { 11, 22 };
    assert_true(runtime_call(f->rt, c, &f->client_a, ENTRY_A, args, 2, 3));
    assert_int_equal(runtime_depth(f->rt), 1);
    assert_ptr_equal(c->mem, f->rtmem);
    assert_int_equal(c->pc, ENTRY_A);
    assert_int_equal(dreg(c, 8), 11);
    assert_int_equal(dreg(c, 9), 22);
    assert_int_equal(runtime_top(f->rt)->role, 3);
    assert_int_equal(step(c), STOP_NONE);                  /* hps.flush: A's hook */
    assert_int_equal(f->a.flushed, 1);
    assert_int_equal(step(c), STOP_ILLEGAL);               /* A has no notify hook */
    c->pc = ENTRY_A + 8;
    uint64_t switches = runtime_switches(f->rt);
    assert_int_equal(step(c), STOP_NONE);                  /* hps.ret */
    assert_int_equal(runtime_depth(f->rt), 0);
    assert_int_equal(f->a.returned, 1);
    assert_ptr_equal(c->mem, f->prog);
    assert_int_equal(c->pc, PROG_PC);
    assert_true(runtime_switches(f->rt) != switches);
}

/* A call while a handler runs: d8..d15 come back after its hps.ret, and
 * its stack lies below the interrupted handler's sp. */
static void test_nested_call(void **state)
{
    fixture_t *f = *state;
    cpu_t *c = &f->cpu;
    const uint64_t a_args[] = { 1, 2, 3, 4 };
    assert_true(runtime_call(f->rt, c, &f->client_a, ENTRY_A, a_args, 4, 0));
    c->reg[REG_DISE0 + DREG_SAVED_SP] = 0x3fffff00;         /* the program's sp, parked */
    c->reg[SP] = STACK_TOP - 0x300;                          /* A is using its stack */
    c->pc = ENTRY_A + 4;
    const uint64_t b_args[] = { 99 };
    assert_true(runtime_call(f->rt, c, &f->client_b, ENTRY_B, b_args, 1, 0));
    assert_int_equal(runtime_depth(f->rt), 2);
    assert_int_equal(dreg(c, 8), 99);
    assert_true(dreg(c, DREG_HANDLER_SP) < STACK_TOP - 0x300);
    assert_int_equal(dreg(c, DREG_HANDLER_SP) % 16, 0);
    assert_int_equal(step(c), STOP_NONE);                  /* B's hps.ret */
    assert_int_equal(f->b.returned, 1);
    assert_int_equal(f->a.returned, 0);
    assert_int_equal(runtime_depth(f->rt), 1);
    assert_ptr_equal(c->mem, f->rtmem);
    assert_int_equal(c->pc, ENTRY_A + 4);
    for (unsigned k = 0; k < 4; k++) assert_int_equal(dreg(c, 8 + k), a_args[k]);
    assert_int_equal(dreg(c, DREG_HANDLER_SP), STACK_TOP);
    assert_int_equal(dreg(c, DREG_SAVED_SP), 0x3fffff00);
}

/* Outside every frame the special instructions are illegal; unwinding
 * leaves every frame without resuming it. */
static void test_outside_frames_and_unwind(void **state)
{
    fixture_t *f = *state;
    cpu_t *c = &f->cpu;
    c->mem = f->rtmem;                                       /* runtime code, no frame */
    c->pc = ENTRY_A;
    assert_int_equal(step(c), STOP_ILLEGAL);
    c->mem = f->prog;
    c->pc = PROG_PC;
    assert_true(runtime_call(f->rt, c, &f->client_a, ENTRY_A, NULL, 0, 0));
    assert_true(runtime_call(f->rt, c, &f->client_b, ENTRY_B, NULL, 0, 0));
    c->pc = ENTRY_B + 4;                                     /* stopped mid-handler */
    runtime_unwind(f->rt, c);
    assert_int_equal(runtime_depth(f->rt), 0);
    assert_ptr_equal(c->mem, f->prog);
    assert_int_equal(c->pc, ENTRY_B + 4);                    /* pc left as it was */
    assert_int_equal(f->a.returned + f->b.returned, 0);
    for (unsigned k = 0; k < RUNTIME_MAX_DEPTH; k++)
        assert_true(runtime_call(f->rt, c, &f->client_b, ENTRY_B, NULL, 0, 0));
    assert_false(runtime_call(f->rt, c, &f->client_b, ENTRY_B, NULL, 0, 0));   /* full */
    runtime_unwind(f->rt, c);
}

/* hps.ldp / hps.stp in a handler: the program's doubleword, 0 where it has
 * no memory; the runtime's memory at the same address is not touched. */
static void test_program_memory(void **state)
{
    fixture_t *f = *state;
    cpu_t *c = &f->cpu;
    const uint64_t word = 0x1122334455667788ull, none = 0;
    assert_true(mem_write(f->prog, PROG_DATA + 8, &word, 8));
    assert_true(runtime_call(f->rt, c, &f->client_a, ENTRY_C, NULL, 0, 0));
    c->reg[11] = PROG_DATA + 8;
    c->reg[12] = 0xabcdull;
    assert_int_equal(step(c), STOP_NONE);                  /* hps.ldp a0, a1 */
    assert_int_equal(c->reg[10], word);
    assert_int_equal(step(c), STOP_NONE);                  /* hps.stp a1, a2 */
    uint64_t got = 0;
    assert_true(mem_read(f->prog, PROG_DATA + 8, &got, 8));
    assert_int_equal(got, 0xabcdull);
    assert_false(mem_is_mapped(f->rtmem, PROG_DATA));      /* not the runtime's */
    c->reg[11] = 0x90000ull;                               /* unmapped in the program */
    assert_int_equal(step(c), STOP_NONE);                  /* hps.ldp a0, a1 */
    assert_int_equal(c->reg[10], none);
    assert_int_equal(step(c), STOP_NONE);                  /* hps.ret */
    assert_ptr_equal(c->mem, f->prog);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_call_and_return, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nested_call, setup, teardown),
        cmocka_unit_test_setup_teardown(test_outside_frames_and_unwind, setup, teardown),
        cmocka_unit_test_setup_teardown(test_program_memory, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
