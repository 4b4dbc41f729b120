/*
 * sys.h - Linux user-mode system-call emulation.
 *
 * The emulation is written once against an abstract ABI description
 * (sys_abi_t): which registers carry the syscall number, arguments and
 * result, how errors are signalled, and a table from the guest's syscall
 * numbers to handlers.  RISC-V uses the asm-generic numbers; Alpha (later)
 * brings its own numbers, its a3 error flag and its struct layouts.
 *
 * Time is deterministic by default: clocks advance with simulated
 * instructions (or cycles), and getrandom/AT_RANDOM draw from a generator
 * seeded by --seed.  Guest file descriptors map onto host descriptors;
 * stdin/stdout/stderr pass through.
 */
#ifndef HPS_SYS_H
#define HPS_SYS_H

#include <stdbool.h>
#include <stdint.h>

#include "core.h"

struct sys;
typedef int64_t (*sys_handler_fn)(struct sys *s, cpu_t *c, const uint64_t a[6]);

typedef struct sys_entry {
    uint32_t nr;                /* guest syscall number                     */
    const char *name;
    sys_handler_fn fn;          /* NULL: known but unsupported              */
} sys_entry_t;

typedef struct sys_abi {
    const char *name;
    uint8_t nr_reg;             /* unified register holding the number      */
    uint8_t arg_reg[6];
    uint8_t ret_reg;
    int8_t  err_flag_reg;       /* Alpha a3; -1 when errors are -errno      */
    const sys_entry_t *table;   /* sorted by nr                             */
    unsigned table_size;
    unsigned page_size;
} sys_abi_t;

extern const sys_abi_t sys_abi_rv64;

typedef struct sys_config {
    uint64_t seed;              /* getrandom / AT_RANDOM                    */
    uint64_t epoch_sec;         /* wall-clock time at instruction 0         */
    uint64_t insts_per_sec;     /* simulated clock rate for time()          */
    bool host_time;             /* use the host clock instead (non-deterministic) */
} sys_config_t;

#define SYS_MAX_FDS 1024

typedef struct sys {
    const sys_abi_t *abi;
    mem_t *mem;
    sys_config_t cfg;
    uint64_t brk_start, brk_cur;        /* program break                    */
    uint64_t mmap_bottom, mmap_top;     /* where anonymous mmaps go         */
    int host_fd[SYS_MAX_FDS];           /* guest fd -> host fd, -1 = closed */
    uint64_t rng_state;                 /* splitmix64 stream for getrandom  */
    uint64_t tid;
    uint64_t calls;                     /* syscalls executed                */
} sys_t;

sys_t *sys_new(mem_t *mem, const sys_abi_t *abi, const sys_config_t *cfg);
void   sys_free(sys_t *s);
/* Called by the loader once the image is mapped: the break starts here. */
void   sys_set_brk(sys_t *s, uint64_t brk_start);
/* Execute the syscall the guest requested (ecall / callsys).  Stops the
 * cpu on exit/exit_group (STOP_EXIT) and on unemulated calls
 * (STOP_BAD_SYSCALL, stop_info = number). */
void   sys_call(sys_t *s, cpu_t *c);
/* Name of a guest syscall number, or NULL. */
const char *sys_name(const sys_abi_t *abi, uint64_t nr);
/* Deterministic random bytes from the seed (also used for AT_RANDOM). */
void   sys_random_bytes(sys_t *s, uint8_t *buf, uint64_t len);

#endif /* HPS_SYS_H */
