/*
 * runstats.c - end-of-run statistics of the functional core (runstats.h).
 *
 * Dynamic counts come from the ground-truth counters in each decoded record
 * (insn_t.count, insn_t.taken), summed by operation class and flags, so the
 * run loop itself pays one increment per instruction and nothing else.
 */
#include "runstats.h"
#include "hostmem.h"
#include "smarts.h"
#include "sys.h"
#include "thread.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void insn_totals_add(void *ctx, insn_t *slots, size_t n)
{
    insn_totals_t *t = ctx;
    for (size_t k = 0; k < n; k++) {
        const insn_t *in = &slots[k];
        if (!in->exec || !in->count) continue;
        uint64_t cnt = in->count;
        t->insts += cnt;
        bool new_static = !(in->flags & IF_REDECODED);   /* counted before eviction */
        t->static_executed += new_static;
        t->by_class[in->opclass] += cnt;
        if (in->flags & IF_BRANCH) {
            t->cond_branches += cnt;
            t->cond_taken += in->taken;
            if (in->flags & IF_BACKWARD) {
                t->cond_backward += cnt;
                t->cond_backward_taken += in->taken;
            }
        }
        if (in->flags & IF_JUMP) t->jumps += cnt;
        if (in->flags & IF_CALL) {
            t->calls += cnt;
            t->call_sites_executed += new_static;
            if (in->flags & IF_INDIRECT) t->indirect_calls += cnt;
        }
        if (in->flags & IF_RETURN) t->returns += cnt;
        if (in->flags & IF_LOAD) t->loads += cnt;
        if (in->flags & IF_STORE) t->stores += cnt;
        if (in->flags & IF_FP) t->fp_insts += cnt;
        if (in->flags & IF_COMPRESSED) t->compressed += cnt;
    }
}

static void totals_merge(insn_totals_t *into, const insn_totals_t *from)
{
    uint64_t *a = (uint64_t *)into;
    const uint64_t *b = (const uint64_t *)from;
    for (size_t k = 0; k < sizeof *into / sizeof(uint64_t); k++) a[k] += b[k];
}

/* The bytes at pc, as mem_read has them across pages: 4, or 2 where only
 * those are readable, or none. */
static size_t fetch_across(const cpu_t *c, const image_t *img, uint64_t pc, uint8_t bytes[4])
{
    if (pc + 4 <= img->highest && mem_read(c->mem, pc, bytes, 4)) return 4;
    return mem_read(c->mem, pc, bytes, 2) ? 2 : 0;
}

/* Sweep one executable page from *pc while 4 bytes are left in it and
 * below img->highest, reading its data in place (a page never written
 * reads as zeros); the ISA's steps, and the calls they found. */
static uint64_t sweep_in_page(const cpu_t *c, const image_t *img, const guest_page_t *pg,
                              uint64_t *pc)
{
    static const uint8_t zeros[GUEST_PAGE_SIZE];
    const uint8_t *data = pg->data ? pg->data : zeros;
    uint64_t base = *pc & ~(uint64_t)GUEST_PAGE_MASK, p = *pc, sites = 0;
    uint64_t limit = base + GUEST_PAGE_SIZE < img->highest ? base + GUEST_PAGE_SIZE : img->highest;
    unsigned (*step)(uint64_t, const uint8_t *, size_t, bool *) = c->isa->sweep_step;
    while (p + 4 <= limit) {
        bool call;
        p += step(p, data + (p - base), 4, &call);
        sites += call;
    }
    *pc = p;
    return sites;
}

uint64_t count_static_call_sites(const cpu_t *c, const image_t *img)
{
    uint64_t sites = 0, page_base = 1;          /* 1: no page looked up yet */
    guest_page_t *pg = NULL;
    for (uint64_t pc = img->lowest; pc + 2 <= img->highest;) {
        if ((pc & ~GUEST_PAGE_MASK) != page_base) {
            pg = mem_page(c->mem, pc);
            page_base = pc & ~GUEST_PAGE_MASK;
        }
        if (!pg || !(pg->prot & MEM_PROT_EXEC)) {
            pc = (pc | GUEST_PAGE_MASK) + 1;
            continue;
        }
        uint64_t from = pc;
        sites += sweep_in_page(c, img, pg, &pc);
        if (pc != from) continue;
        /* the last bytes of the page or the image */
        uint8_t bytes[4] = {0};
        size_t avail = fetch_across(c, img, pc, bytes);
        bool call = false;
        pc += avail ? c->isa->sweep_step(pc, bytes, avail, &call) : c->isa->insn_align;
        sites += call;
    }
    return sites;
}

static uint64_t distinct_targets(const truth_t *truth)
{
    size_t n = 0;
    pair_count_t *pairs = pair_table_sorted(&truth->call_pairs, &n);
    pair_table_t targets = {0};
    for (size_t k = 0; k < n; k++) pair_table_add(&targets, pairs[k].b, 0, 1);
    uint64_t count = targets.used;
    pair_table_free(&targets);
    free(pairs);
    return count;
}

static void add_mix(stats_t *s, const insn_totals_t *t)
{
    char name[64], desc[128];
    for (int k = 0; k < OC_COUNT; k++) {
        snprintf(name, sizeof name, "cpu.opclass::%s", opclass_names[k]);
        snprintf(desc, sizeof desc, "Instructions of operation class %s", opclass_names[k]);
        stats_add_u64(s, name, t->by_class[k], "Count", desc);
    }
}

static void add_control(stats_t *s, const insn_totals_t *t)
{
    stats_add_u64(s, "cpu.branches.conditional", t->cond_branches, "Count",
                  "Conditional branches executed");
    stats_add_u64(s, "cpu.branches.taken", t->cond_taken, "Count",
                  "Conditional branches taken");
    stats_add_u64(s, "cpu.branches.backward", t->cond_backward, "Count",
                  "Conditional branches with a backward target");
    stats_add_u64(s, "cpu.branches.backwardTaken", t->cond_backward_taken, "Count",
                  "Backward conditional branches taken (loop back-edges)");
    stats_add_u64(s, "cpu.jumps", t->jumps, "Count",
                  "Unconditional jumps, calls and returns");
    stats_add_u64(s, "cpu.calls", t->calls, "Count", "Procedure calls");
    stats_add_u64(s, "cpu.callsIndirect", t->indirect_calls, "Count",
                  "Procedure calls through a register");
    stats_add_u64(s, "cpu.returns", t->returns, "Count", "Procedure returns");
}

static void add_memory(stats_t *s, const insn_totals_t *t, const run_info_t *info)
{
    stats_add_u64(s, "cpu.loads", t->loads, "Count", "Loads (incl. FP and LR/AMO)");
    stats_add_u64(s, "cpu.stores", t->stores, "Count", "Stores (incl. FP and SC/AMO)");
    stats_add_u64(s, "cpu.memRefs", t->loads + t->stores, "Count",
                  "Memory-referencing instructions (AMOs count as load and store)");
    if (info->truth)
        stats_add_u64(s, "mem.uniqueWords", mem_count_touched(info->cpu->mem), "Count",
                      "Distinct 64-bit data words referenced");
    stats_add_u64(s, "mem.pagesTouched", info->cpu->mem->pages_touched, "Count",
                  "Guest pages given host memory");
    stats_add_u64(s, "mem.guestPeakBytes", info->cpu->mem->pages_mapped_peak * GUEST_PAGE_SIZE,
                  "Byte", "Most guest memory mapped at once (what --guest-mem bounds)");
    stats_add_u64(s, "hostMemPeakBytes", hostmem_peak(), "Byte",
                  "Most host memory hps-sim held at once for guest pages, page tables and "
                  "decoded instructions (what --host-mem bounds)");
    stats_add_u64(s, "mem.decodedEvictions", info->cpu->mem->decoded_evictions, "Count",
                  "Code pages whose decoded instructions the full decoded cache took back");
}

static void add_program(stats_t *s, const insn_totals_t *t, const run_info_t *info)
{
    stats_add_u64(s, "prog.methods", info->symtab ? info->symtab->count : 0, "Count",
                  "Functions in the program's symbol table");
    stats_add_u64(s, "prog.callSites", count_static_call_sites(info->cpu, info->image),
                  "Count", "Static call instructions in the executable");
    stats_add_u64(s, "prog.callSitesExecuted", t->call_sites_executed, "Count",
                  "Call instructions executed at least once");
    if (info->truth) {
        stats_add_u64(s, "prog.callPairs", info->truth->call_pairs.used, "Count",
                      "Distinct (call site, target) pairs executed");
        stats_add_u64(s, "prog.methodsCalled", distinct_targets(info->truth), "Count",
                      "Distinct call targets executed");
    }
}

void runstats_collect(const run_info_t *info, stats_t *s)
{
    insn_totals_t t;
    memset(&t, 0, sizeof t);
    mem_for_each_decoded(info->cpu->mem, insn_totals_add, &t);
    if (info->dropped) totals_merge(&t, info->dropped);

    double secs = info->host_seconds > 0 ? info->host_seconds : 1e-9;
    stats_add_u64(s, "simInsts", info->cpu->instret, "Count",
                  "Program instructions simulated");
    if (info->cpu->restored_at)
        stats_add_u64(s, "sim.restoredAtInsts", info->cpu->restored_at, "Count",
                      "Program instructions before the --restore checkpoint: simInsts counts "
                      "them; hostMIPS, a timing model's cycles and its statistics do not");
    stats_add_u64(s, "sim.runtimeInsts", info->cpu->runtime_insts, "Count",
                  "Instructions profiling added: DISE-inserted and handler instructions");
    stats_add_u64(s, "sim.truncated", info->cpu->stop == STOP_MAX_INSTS, "Count",
                  "1 when --max-insts stopped the run before the program ended");
    stats_add_u64(s, "sim.interrupted", info->cpu->stop == STOP_INTERRUPTED, "Count",
                  "1 when SIGINT or SIGTERM stopped the run before the program ended");
    if (info->cpu->sys)
        stats_add_u64(s, "sim.signalsDelivered", info->cpu->sys->signals_delivered, "Count",
                      "Guest signal handlers entered (sent signals and faults)");
    if (info->cpu->sys) {
        const sys_threads_t *th = info->cpu->sys->threads;
        stats_add_u64(s, "sim.threadsCreated", th ? th->created : 0, "Count",
                      "Guest threads created (clone), the first one not counted");
        stats_add_u64(s, "sim.threadSwitches", th ? th->switches : 0, "Count",
                      "Switches from one guest thread to another (thread.h)");
        stats_add_u64(s, "sim.futexTimeouts", th ? th->timeouts : 0, "Count",
                      "Futex waits and thread sleeps ended by their timeout");
    }
    stats_add_u64(s, "simCycles", info->cpu->cycle, "Cycle",
                  "Cycles simulated (one per instruction without a timing model)");
    stats_add_f64(s, "hostSeconds", info->host_seconds, "Second", "Host time in the run loop");
    stats_add_f64(s, "hostMIPS", (double)(info->cpu->instret - info->cpu->restored_at) / secs / 1e6,
                  "Count/Second",
                  "Simulated million instructions per host second");
    stats_add_u64(s, "cpu.staticInstsExecuted", t.static_executed, "Count",
                  "Distinct static instructions executed");
    stats_add_u64(s, "cpu.compressed", t.compressed, "Count", "RVC (16-bit) instructions");
    stats_add_u64(s, "cpu.fpInsts", t.fp_insts, "Count", "Floating-point instructions");
    if (info->timing) timing_stats(info->timing, info->cpu, s);
    if (info->smarts) smarts_stats(info->smarts, info->cpu->instret, s);
    add_mix(s, &t);
    add_control(s, &t);
    add_memory(s, &t, info);
    add_program(s, &t, info);
}
