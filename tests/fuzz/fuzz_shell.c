/*
 * fuzz_shell.c - libFuzzer harness of the interactive shell's commands:
 * the input as the lines typed at the prompt (shell_run reading a memory
 * stream), against a small guest ($HPS_FUZZ_GUEST, a static RISC-V
 * program: tests/fuzz/run.sh passes the built hello) stopped at its first
 * instruction, on the ev5 timing model, every run bounded by a
 * --max-insts of 20000.  The guest's output is discarded and its stdin is
 * /dev/null; a moved guest is rebuilt before the next input (also the
 * shell's restart for back/goto).  Seeds: tests/fuzz/seeds/shell.
 */
#include "fuzz_common.h"

#include <fcntl.h>

#include "config.h"
#include "core.h"
#include "disasm.h"
#include "engine.h"
#include "loader.h"
#include "mem.h"
#include "shell.h"
#include "symtab.h"
#include "sys.h"
#include "timing.h"

enum { FUZZ_MAX_INSTS = 20000 };

static struct {
    const char *path;
    config_t cfg;
    symtab_t *symtab;
    disasm_t *dis;
    FILE *devnull;
    mem_t *mem;
    image_t img;
    sys_t *sys;
    cpu_t *cpu;
    timing_t *timing;
    engine_t *engine;
} g;

static _Noreturn void setup_failed(const char *what, const char *err)
{
    fprintf(stderr, "fuzz_shell: %s: %s\n", what, err);
    abort();
}

/* The guest's process, as hps-sim builds it (main.c guest_load). */
static void process_new(void)
{
    char err[512];
    const isa_t *isa = &isa_rv64;
    g.mem = mem_new();
    if (!loader_load(g.path, isa, g.mem, &g.img, err, sizeof err)) setup_failed(g.path, err);
    const guest_layout_t *lay = loader_layout(isa);
    sys_config_t scfg = { .seed = 1, .epoch_sec = 1700000000ull, .insts_per_sec = 1000000000ull };
    g.sys = sys_new(g.mem, &sys_abi_rv64, &scfg);
    sys_set_brk(g.sys, g.img.brk_start);
    sys_set_exe(g.sys, g.path);
    sys_set_mmap_area(g.sys, lay->mmap_bottom, lay->mmap_top, lay->mmap_bottom_up);
    g.sys->host_fd[0] = open("/dev/null", O_RDONLY);
    g.sys->fd_flags[0] |= SYS_FD_OWNED;
    g.sys->discard_output = true;
    static const uint8_t random16[16];
    char *argv[] = { (char *)g.path, NULL }, *envp[] = { NULL };
    g.cpu = cpu_new(isa, g.mem);
    g.cpu->sys = g.sys;
    g.cpu->symtab = g.symtab;
    g.cpu->reg[lay->sp_reg] = loader_build_stack(g.mem, &g.img, isa, 1, argv, envp, random16,
                                                 g.path);
    g.cpu->pc = g.img.start;
    g.timing = timing_new(&g.cfg, err, sizeof err);
    if (!g.timing) setup_failed("timing_new", err);
    timing_record_recent(g.timing, g.dis);
    g.engine = engine_new(&(engine_parts_t){ .cpu = g.cpu, .timing = g.timing }, err, sizeof err);
    if (!g.engine) setup_failed("engine_new", err);
}

static void process_free(void)
{
    engine_free(g.engine);
    timing_free(g.timing);
    sys_free(g.sys);
    free(g.cpu);
    mem_free(g.mem);
}

static void target_fill(shell_target_t *t)
{
    t->cpu = g.cpu;
    t->timing = g.timing;
    t->engine = g.engine;
}

static void restart(void *ctx, shell_target_t *t)
{
    process_free();
    process_new();
    target_fill(t);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    char err[512];
    g.path = getenv("HPS_FUZZ_GUEST");
    if (!g.path) setup_failed("HPS_FUZZ_GUEST", "not set (a static RISC-V program)");
    config_defaults(&g.cfg);
    if (!config_set(&g.cfg, "model=ev5", err, sizeof err)) setup_failed("model=ev5", err);
    g.symtab = symtab_load(g.path);
    g.dis = disasm_new(&isa_rv64);
    g.devnull = fopen("/dev/null", "w");
    process_new();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size) return 0;
    if (g.cpu->instret || g.cpu->stop != STOP_NONE) {
        process_free();
        process_new();
    }
    shell_target_t t = { .disasm = g.dis, .symtab = g.symtab, .restart = restart,
                         .max_insts = FUZZ_MAX_INSTS };
    target_fill(&t);
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in) abort();
    shell_run(&t, in, g.devnull);
    fclose(in);
    return 0;
}
