/*
 * test_thread.c - unit tests of the guest threads (sim/syscall_thread.c)
 * with the RISC-V ABI: system calls are made as in test_syscall.c (a0..a5,
 * a7, sys_call), and the instruction boundary after each is
 * sys_signal_boundary, where the run loop switches threads.  Checked: a
 * thread clone (tids, CLONE_PARENT_SETTID, the child's registers: a0 0,
 * its stack, tp), a futex wait woken by the CLONE_CHILD_CLEARTID wake at
 * the child's exit, timeouts on the simulated clock, a deadlock stop,
 * CMP_REQUEUE and the bitset of WAIT_BITSET/WAKE_BITSET, the robust list
 * walked at exit (FUTEX_OWNER_DIED), tgkill ending another thread's wait,
 * kill reaching a thread in rt_sigtimedwait (and pending on the process
 * while every thread blocks it), the quantum, and fork refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "mem.h"
#include "sys.h"
#include "thread.h"

enum { NR_exit = 93, NR_futex = 98, NR_set_robust_list = 99, NR_sched_yield = 124,
       NR_kill = 129, NR_tgkill = 131, NR_rt_sigprocmask = 135, NR_rt_sigtimedwait = 137,
       NR_gettid = 178, NR_clone = 220 };
enum { FUTEX_WAIT = 0, FUTEX_WAKE = 1, FUTEX_CMP_REQUEUE = 4, FUTEX_WAIT_BITSET = 9,
       FUTEX_WAKE_BITSET = 10, FUTEX_PRIVATE = 128 };
#define THREAD_FLAGS 0x3d0f00ull        /* what glibc's pthread_create passes */
#define SCRATCH     0x100000ull
#define SCRATCH_LEN 0x20000ull
#define ETIMEDOUT_G 110
#define EINTR_G     4
#define EAGAIN_G    11
enum { A0 = 10, SP = 2, TP = 4 };

typedef struct env {
    mem_t *mem;
    cpu_t cpu;
    sys_t *sys;
} env_t;

static int setup_quantum(void **state, uint64_t quantum)
{
    env_t *e = calloc(1, sizeof *e);
    e->mem = mem_new();
    cpu_init(&e->cpu, &isa_rv64, e->mem);
    sys_config_t cfg = { .seed = 1, .epoch_sec = 1700000000ull, .insts_per_sec = 1000000000ull,
                         .thread_quantum = quantum };
    e->sys = sys_new(e->mem, &sys_abi_rv64, &cfg);
    e->cpu.sys = e->sys;
    assert_true(mem_map(e->mem, SCRATCH, SCRATCH_LEN, MEM_PROT_READ | MEM_PROT_WRITE));
    e->cpu.pc = 0x10000;
    *state = e;
    return 0;
}

static int setup(void **state) { return setup_quantum(state, 0); }

static int teardown(void **state)
{
    env_t *e = *state;
    sys_free(e->sys);
    mem_free(e->mem);
    free(e);
    return 0;
}

/* A system call (up to six arguments), as the ecall would make it; a0. */
#define CALL(e, nr, ...) call(e, nr, (uint64_t[6]){ __VA_ARGS__ })
static int64_t call(env_t *e, uint64_t nr, const uint64_t a[6])
{
    for (int k = 0; k < 6; k++) e->cpu.reg[A0 + k] = a[k];
    e->cpu.reg[17] = nr;
    jmp_buf jb;
    e->cpu.stop_jmp = &jb;
    if (setjmp(jb) == 0) sys_call(e->sys, &e->cpu);
    e->cpu.stop_jmp = NULL;
    return (int64_t)e->cpu.reg[A0];
}

/* The instruction boundary after the call: switches, signals. */
static stop_reason_t boundary(env_t *e)
{
    if (sys_signal_event_at(e->sys, &e->cpu) > e->cpu.instret) return STOP_NONE;
    return sys_signal_boundary(e->sys, &e->cpu);
}

static uint32_t rd32(env_t *e, uint64_t addr)
{
    uint32_t v;
    assert_true(mem_read(e->mem, addr, &v, 4));
    return v;
}

static void wr32(env_t *e, uint64_t addr, uint32_t v) { assert_true(mem_write(e->mem, addr, &v, 4)); }
static void wr64(env_t *e, uint64_t addr, uint64_t v) { assert_true(mem_write(e->mem, addr, &v, 8)); }

static int64_t gettid(env_t *e) { return CALL(e, NR_gettid, 0); }

/* clone a thread with its stack at sp, tls, parent and child tid words at
 * tidword; the new tid. */
static int64_t clone_thread(env_t *e, uint64_t sp, uint64_t tls, uint64_t tidword)
{
    return CALL(e, NR_clone, THREAD_FLAGS, sp, tidword, tls, tidword);
}

static void test_clone_and_join(void **state)
{
    env_t *e = *state;
    uint64_t word = SCRATCH + 0x20;
    e->cpu.reg[SP] = SCRATCH + 0x1000;
    e->cpu.reg[TP] = 0x1111;
    assert_int_equal(clone_thread(e, SCRATCH + 0x8000, 0x5555, word), 1001);
    assert_int_equal(rd32(e, word), 1001);                   /* CLONE_PARENT_SETTID */
    assert_int_equal(boundary(e), STOP_NONE);                /* the parent runs on */
    assert_int_equal(gettid(e), 1000);
    /* join: wait while the word holds the child's tid */
    assert_int_equal(CALL(e, NR_futex, word, FUTEX_WAIT, 1001, 0), 0);
    assert_int_equal(boundary(e), STOP_NONE);
    assert_int_equal(gettid(e), 1001);                       /* the child now */
    assert_int_equal(e->cpu.reg[A0], 1001);                  /* gettid's own result */
    assert_int_equal(e->cpu.reg[SP], SCRATCH + 0x8000);
    assert_int_equal(e->cpu.reg[TP], 0x5555);
    assert_int_equal(e->cpu.pc, 0x10000);
    CALL(e, NR_exit, 0);
    assert_int_equal(rd32(e, word), 0);                      /* CLONE_CHILD_CLEARTID */
    assert_int_equal(boundary(e), STOP_NONE);
    assert_int_equal(e->cpu.reg[A0], 0);                     /* the wait returns 0 */
    assert_int_equal(e->cpu.reg[SP], SCRATCH + 0x1000);
    assert_int_equal(e->cpu.reg[TP], 0x1111);
    assert_int_equal(gettid(e), 1000);
    assert_int_equal(e->sys->threads->live, 1);
    assert_int_equal(e->sys->threads->switches, 2);
}

static void test_child_clone_result_is_zero(void **state)
{
    env_t *e = *state;
    assert_int_equal(clone_thread(e, SCRATCH + 0x8000, 0, SCRATCH + 0x20), 1001);
    assert_int_equal(CALL(e, NR_sched_yield, 0), 0);
    assert_int_equal(boundary(e), STOP_NONE);
    assert_int_equal(e->cpu.reg[A0], 0);                     /* clone returned 0 here */
    assert_int_equal(gettid(e), 1001);
}

static void test_timeout_then_deadlock(void **state)
{
    env_t *e = *state;
    uint64_t word = SCRATCH + 0x40, ts = SCRATCH + 0x80;
    wr32(e, word, 7);
    wr64(e, ts, 0);
    wr64(e, ts + 8, 5000);                                   /* 5 us */
    assert_int_equal(CALL(e, NR_futex, word, FUTEX_WAIT | FUTEX_PRIVATE, 8, ts), -EAGAIN_G);
    assert_int_equal(CALL(e, NR_futex, word, FUTEX_WAIT | FUTEX_PRIVATE, 7, ts), 0);
    assert_int_equal(boundary(e), STOP_NONE);                /* no one else: time jumps */
    assert_int_equal((int64_t)e->cpu.reg[A0], -ETIMEDOUT_G);
    assert_int_equal(e->sys->sleep_ns, 5000);
    assert_int_equal(e->sys->threads->timeouts, 1);
    assert_int_equal(CALL(e, NR_futex, word, FUTEX_WAIT, 7, 0), 0);
    assert_int_equal(boundary(e), STOP_DEADLOCK);
    assert_int_equal(e->cpu.stop_info, 1);
}

/* main waits on w1 with bitset 1; A waits on w1; B requeues one waiter (the
 * first, main) to w2, wakes w1 (A), then wakes w2 with bitset 2 (no one)
 * and bitset 1 (main). */
static void test_requeue_and_bitsets(void **state)
{
    env_t *e = *state;
    uint64_t w1 = SCRATCH + 0x100, w2 = SCRATCH + 0x104;
    wr32(e, w1, 3);
    wr32(e, w2, 0);
    assert_int_equal(clone_thread(e, SCRATCH + 0x8000, 0, SCRATCH + 0x20), 1001);
    assert_int_equal(clone_thread(e, SCRATCH + 0x9000, 0, SCRATCH + 0x24), 1002);
    assert_int_equal(CALL(e, NR_futex, w1, FUTEX_WAIT_BITSET, 3, 0, 0, 1), 0);
    assert_int_equal(boundary(e), STOP_NONE);
    assert_int_equal(gettid(e), 1001);
    assert_int_equal(CALL(e, NR_futex, w1, FUTEX_WAIT, 3, 0), 0);
    assert_int_equal(boundary(e), STOP_NONE);
    assert_int_equal(gettid(e), 1002);
    assert_int_equal(CALL(e, NR_futex, w1, FUTEX_CMP_REQUEUE, 0, 1, w2, 4), -EAGAIN_G);
    assert_int_equal(CALL(e, NR_futex, w1, FUTEX_CMP_REQUEUE, 0, 1, w2, 3), 1);
    assert_int_equal(CALL(e, NR_futex, w1, FUTEX_WAKE, 5), 1);         /* A only */
    assert_int_equal(CALL(e, NR_futex, w2, FUTEX_WAKE_BITSET, 1, 0, 0, 2), 0);
    assert_int_equal(CALL(e, NR_futex, w2, FUTEX_WAKE_BITSET, 1, 0, 0, 1), 1);
    assert_int_equal(CALL(e, NR_futex, w2, FUTEX_WAKE, 1), 0);
}

/* The child holds a robust futex (its tid | FUTEX_WAITERS) on its list
 * when it exits: the word becomes FUTEX_OWNER_DIED | FUTEX_WAITERS. */
static void test_robust_list_at_exit(void **state)
{
    env_t *e = *state;
    uint64_t head = SCRATCH + 0x200, entry = SCRATCH + 0x300;
    assert_int_equal(clone_thread(e, SCRATCH + 0x8000, 0, SCRATCH + 0x20), 1001);
    CALL(e, NR_sched_yield, 0);
    assert_int_equal(boundary(e), STOP_NONE);
    assert_int_equal(gettid(e), 1001);
    wr64(e, head, entry);                                    /* next */
    wr64(e, head + 8, 16);                                   /* futex_offset */
    wr64(e, head + 16, 0);                                   /* list_op_pending */
    wr64(e, entry, head);
    wr32(e, entry + 16, 1001u | 0x80000000u);
    assert_int_equal(CALL(e, NR_set_robust_list, head, 24), 0);
    CALL(e, NR_exit, 0);
    assert_int_equal(rd32(e, entry + 16), 0xc0000000u);
    assert_int_equal(boundary(e), STOP_NONE);
    assert_int_equal(gettid(e), 1000);
}

/* tgkill ends another thread's futex wait with EINTR; SIGUSR1's default
 * action then ends the process when that thread runs. */
static void test_tgkill_ends_a_wait(void **state)
{
    env_t *e = *state;
    uint64_t word = SCRATCH + 0x40;
    wr32(e, word, 1);
    assert_int_equal(clone_thread(e, SCRATCH + 0x8000, 0, SCRATCH + 0x20), 1001);
    CALL(e, NR_sched_yield, 0);
    assert_int_equal(boundary(e), STOP_NONE);
    assert_int_equal(CALL(e, NR_futex, word, FUTEX_WAIT, 1, 0), 0);
    assert_int_equal(boundary(e), STOP_NONE);
    assert_int_equal(gettid(e), 1000);
    assert_int_equal(CALL(e, NR_tgkill, 1000, 1001, 10), 0);
    assert_int_equal(CALL(e, NR_tgkill, 1000, 1234, 10), -3);   /* ESRCH */
    CALL(e, NR_sched_yield, 0);
    assert_int_equal(boundary(e), STOP_EXIT);
    assert_int_equal(e->cpu.exit_code, 128 + 10);
    assert_int_equal((int64_t)e->cpu.reg[A0], -EINTR_G);       /* the child's wait */
    assert_int_equal(gettid(e), 1001);
}

/* With a quantum of 100 the running thread's turn ends 100 program
 * instructions after it began. */
static void test_quantum(void **state)
{
    env_t *e = *state;
    assert_int_equal(clone_thread(e, SCRATCH + 0x8000, 0, SCRATCH + 0x20), 1001);
    assert_int_equal(sys_signal_event_at(e->sys, &e->cpu), 100);
    e->cpu.instret = 100;
    assert_int_equal(boundary(e), STOP_NONE);
    assert_int_equal(gettid(e), 1001);
    assert_int_equal(sys_signal_event_at(e->sys, &e->cpu), 200);
}

/* Every thread blocks SIGUSR1.  kill to the process while the child waits
 * for it in rt_sigtimedwait: the child's wait ends and its call is made
 * again (pc and a7 back), which takes it.  Sent while nobody waits, it
 * stays pending on the process, and the next wait takes it at once. */
static void test_kill_reaches_a_sigwait_thread(void **state)
{
    env_t *e = *state;
    uint64_t set = SCRATCH + 0x400;
    wr64(e, set, 1ull << 9);                                 /* SIGUSR1 */
    assert_int_equal(CALL(e, NR_rt_sigprocmask, 0, set, 0, 8), 0);
    assert_int_equal(clone_thread(e, SCRATCH + 0x8000, 0, SCRATCH + 0x20), 1001);
    CALL(e, NR_sched_yield, 0);
    assert_int_equal(boundary(e), STOP_NONE);
    assert_int_equal(gettid(e), 1001);
    e->cpu.stop_pc = 0x2000;                                 /* the ecall */
    assert_int_equal(CALL(e, NR_rt_sigtimedwait, set, 0, 0, 8), 0);
    assert_int_equal(boundary(e), STOP_NONE);
    assert_int_equal(gettid(e), 1000);
    assert_int_equal(CALL(e, NR_kill, 1000, 10), 0);
    CALL(e, NR_sched_yield, 0);
    assert_int_equal(boundary(e), STOP_NONE);
    assert_int_equal(e->cpu.pc, 0x2000);                     /* made again */
    assert_int_equal(e->cpu.reg[17], NR_rt_sigtimedwait);
    assert_int_equal(e->cpu.reg[A0], set);
    assert_int_equal(CALL(e, NR_rt_sigtimedwait, set, 0, 0, 8), 10);
    assert_int_equal(CALL(e, NR_kill, 1000, 10), 0);         /* every thread blocks it */
    assert_int_equal(CALL(e, NR_rt_sigtimedwait, set, 0, 0, 8), 10);
}

static int setup_q100(void **state) { return setup_quantum(state, 100); }

static void test_fork_is_refused(void **state)
{
    env_t *e = *state;
    CALL(e, NR_clone, 17 /* SIGCHLD: fork */, 0, 0, 0, 0);
    assert_int_equal(e->cpu.stop, STOP_BAD_SYSCALL);
    assert_int_equal(e->cpu.stop_info, NR_clone);
    assert_null(e->sys->threads);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_clone_and_join, setup, teardown),
        cmocka_unit_test_setup_teardown(test_child_clone_result_is_zero, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timeout_then_deadlock, setup, teardown),
        cmocka_unit_test_setup_teardown(test_requeue_and_bitsets, setup, teardown),
        cmocka_unit_test_setup_teardown(test_robust_list_at_exit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tgkill_ends_a_wait, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kill_reaches_a_sigwait_thread, setup, teardown),
        cmocka_unit_test_setup_teardown(test_quantum, setup_q100, teardown),
        cmocka_unit_test_setup_teardown(test_fork_is_refused, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
