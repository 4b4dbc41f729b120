/*
 * runtime.c - the guest handler runtime on the host side: load the runtime
 * ELF embedded in the simulator (productions/productions.mk) into an
 * address space of its own, read its symbols, and drain the profile buffer
 * its handlers fill (productions/runtime/hps_profile.h).
 *
 * It also keeps the stack of handler frames (runtime.h) and gives the
 * runtime's special instructions hps.ret, hps.flush, hps.notify,
 * hps.wrpmc and hps.rdpmc their semantics: the ISA decodes them (only in the runtime's
 * address space, mem_t.special_ops) and they land here.
 *
 * The image is ours, built with the simulator, but it is still checked like
 * any ELF: machine, segment bounds inside the runtime region below the
 * handler stack, and the buffer symbol's size against the host's idea of
 * the layout, so a stale or mismatched build is an error, not a crash.
 */
#include "runtime.h"

#include <elf.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"
#include "mem.h"
#include "symtab.h"
#include "util.h"

/* The embedded images (the generated blob objects). */
extern const unsigned char hps_runtime_rv64_start[], hps_runtime_rv64_end[];
extern const unsigned char hps_runtime_alpha_start[], hps_runtime_alpha_end[];

typedef struct embedded_runtime {
    int elf_machine;
    const unsigned char *start, *end;
} embedded_runtime_t;

static const embedded_runtime_t embedded[] = {
    { EM_RISCV, hps_runtime_rv64_start, hps_runtime_rv64_end },
    { EM_ALPHA, hps_runtime_alpha_start, hps_runtime_alpha_end },
};

typedef struct rt_symbol {
    char *name;
    uint64_t addr, size;
} rt_symbol_t;

struct runtime {
    runtime_stack_t st;         /* first: runtime.h reads it inline        */
    const isa_t *isa;
    mem_t *mem;
    symtab_t *symtab;           /* FUNC symbols, for traces and reports    */
    rt_symbol_t *syms;          /* every defined named symbol              */
    size_t nsyms;
    uint64_t buffer;            /* guest address of hps_profile            */
    uint64_t stack_top;
    unsigned sp_reg;            /* the ISA's stack pointer (unified number) */
    runtime_handlers_t handlers;  /* which handlers call(Name) reaches     */
    cpu_t *cpu;                 /* the attached cpu (d14 with asm handlers) */
};

static void exec_ret(cpu_t *c, insn_t *in);
static void exec_flush(cpu_t *c, insn_t *in);
static void exec_notify(cpu_t *c, insn_t *in);
static void exec_wrpmc(cpu_t *c, insn_t *in);
static void exec_rdpmc(cpu_t *c, insn_t *in);
static void exec_ldp(cpu_t *c, insn_t *in);
static void exec_stp(cpu_t *c, insn_t *in);

/* The semantics of the special instructions that need the host (hps.mfd
 * and hps.mtd are register moves the ISA gives itself). */
static const exec_fn special_ops[HPS_OP_COUNT] = {
    [HPS_OP_RET] = exec_ret, [HPS_OP_FLUSH] = exec_flush,
    [HPS_OP_NOTIFY] = exec_notify, [HPS_OP_WRPMC] = exec_wrpmc,
    [HPS_OP_RDPMC] = exec_rdpmc, [HPS_OP_LDP] = exec_ldp, [HPS_OP_STP] = exec_stp,
};

/* A segment's pages [start, end) with protection prot, as mem_map_union
 * maps them; its .bss pages from zero_end on (csprof's tables: thousands)
 * in one mem_map when none is mapped yet, instead of page by page. */
static bool map_segment(mem_t *m, uint64_t start, uint64_t zero_end, uint64_t end, int prot)
{
    uint64_t bss = zero_end;            /* page-aligned when below end */
    if (bss >= end || mem_unmapped_bytes(m, bss, end - bss) !=
                          ((end - bss + GUEST_PAGE_MASK) & ~(uint64_t)GUEST_PAGE_MASK))
        return mem_map_union(m, start, end, prot);
    return mem_map_union(m, start, bss, prot) && mem_map(m, bss, end - bss, prot);
}

static bool load_segments(runtime_t *rt, Elf *elf, const unsigned char *image,
                          size_t size, char *err, size_t errlen)
{
    size_t phnum = 0;
    if (elf_getphdrnum(elf, &phnum) != 0)
        return set_error(err, errlen, "handler runtime: no program headers: %s", elf_errmsg(-1));
    const uint64_t lo = RUNTIME_BASE;
    const uint64_t hi = RUNTIME_BASE + RUNTIME_SIZE - RUNTIME_STACK_SIZE;
    size_t loaded = 0;
    for (size_t k = 0; k < phnum; k++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)k, &ph))
            return set_error(err, errlen, "handler runtime: program header %zu: %s", k,
                        elf_errmsg(-1));
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
        if (ph.p_filesz > ph.p_memsz || ph.p_offset > size || ph.p_filesz > size - ph.p_offset)
            return set_error(err, errlen, "handler runtime: segment %zu is corrupt", k);
        if (ph.p_vaddr < lo || ph.p_vaddr > hi || ph.p_memsz > hi - ph.p_vaddr)
            return set_error(err, errlen, "handler runtime: segment %zu (0x%" PRIx64 "+0x%" PRIx64
                        ") lies outside [0x%" PRIx64 ", 0x%" PRIx64 "), the runtime region "
                        "below its stack", k, (uint64_t)ph.p_vaddr, (uint64_t)ph.p_memsz, lo, hi);
        uint64_t end = ph.p_vaddr + ph.p_memsz;
        /* .bss: the rest of the page the file part ends in; the pages after it
         * are new and read as zero until touched (csprof's tables are large) */
        uint64_t file_end = ph.p_vaddr + ph.p_filesz;
        uint64_t zero_end = (file_end + GUEST_PAGE_MASK) & ~(uint64_t)GUEST_PAGE_MASK;
        if (zero_end > end) zero_end = end;
        if (!map_segment(rt->mem, ph.p_vaddr, zero_end, end, loader_segment_prot(ph.p_flags)) ||
            !mem_write(rt->mem, ph.p_vaddr, image + ph.p_offset, ph.p_filesz) ||
            !mem_zero(rt->mem, file_end, zero_end - file_end))
            return set_error(err, errlen, "handler runtime: cannot map segment %zu", k);
        loaded++;
    }
    if (!loaded) return set_error(err, errlen, "handler runtime: no loadable segment");
    return true;
}

static bool load_symbols(runtime_t *rt, Elf *elf, char *err, size_t errlen)
{
    size_t cap = 0;
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize) continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (!data) continue;
        size_t n = sh.sh_size / sh.sh_entsize;
        for (size_t k = 1; k < n; k++) {
            GElf_Sym s;
            if (!gelf_getsym(data, (int)k, &s) || s.st_shndx == SHN_UNDEF) continue;
            unsigned type = GELF_ST_TYPE(s.st_info);
            if (type == STT_SECTION || type == STT_FILE) continue;
            const char *name = elf_strptr(elf, sh.sh_link, s.st_name);
            if (!name || !*name) continue;
            if (rt->nsyms == cap) {
                cap = cap ? 2 * cap : 32;
                rt_symbol_t *p = realloc(rt->syms, cap * sizeof *p);
                if (!p) return set_error(err, errlen, "handler runtime: out of memory");
                rt->syms = p;
            }
            char *copy = strdup(name);
            if (!copy) return set_error(err, errlen, "handler runtime: out of memory");
            rt->syms[rt->nsyms++] = (rt_symbol_t){ copy, s.st_value, s.st_size };
        }
    }
    return true;
}

static const rt_symbol_t *find_symbol(const runtime_t *rt, const char *name)
{
    for (size_t k = 0; k < rt->nsyms; k++)
        if (!strcmp(rt->syms[k].name, name)) return &rt->syms[k];
    return NULL;
}

/* Locate hps_profile, check its size and write the host's header fields. */
static bool init_buffer(runtime_t *rt, char *err, size_t errlen)
{
    const rt_symbol_t *s = find_symbol(rt, "hps_profile");
    if (!s) return set_error(err, errlen, "handler runtime: no symbol hps_profile");
    if (s->size != sizeof(hps_profile_t))
        return set_error(err, errlen, "handler runtime: hps_profile is %" PRIu64 " bytes, the host "
                    "expects %zu (stale build?)", s->size, sizeof(hps_profile_t));
    const guest_page_t *pg = mem_page(rt->mem, s->addr);
    const guest_page_t *pg_end = mem_page(rt->mem, s->addr + s->size - 1);
    if (!pg || !pg_end || !(pg->prot & MEM_PROT_WRITE) || !(pg_end->prot & MEM_PROT_WRITE))
        return set_error(err, errlen, "handler runtime: hps_profile is not in writable memory");
    hps_profile_header_t h = { .magic = HPS_PROFILE_MAGIC, .version = HPS_PROFILE_VERSION,
                               .capacity = HPS_PROFILE_CAPACITY };
    if (!mem_write(rt->mem, s->addr, &h, sizeof h))
        return set_error(err, errlen, "handler runtime: cannot write hps_profile");
    rt->buffer = s->addr;
    return true;
}

static bool load_image(runtime_t *rt, const unsigned char *image, size_t size,
                       char *err, size_t errlen)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return set_error(err, errlen, "handler runtime: libelf initialisation failed: %s",
                    elf_errmsg(-1));
    /* libelf wants a writable image; the embedded one is read-only. */
    char *copy = malloc(size);
    if (!copy) return set_error(err, errlen, "handler runtime: out of memory");
    memcpy(copy, image, size);
    Elf *elf = elf_memory(copy, size);
    bool ok = false;
    GElf_Ehdr eh;
    if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
        set_error(err, errlen, "handler runtime: embedded image is not an ELF file");
    else if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_type != ET_EXEC)
        set_error(err, errlen, "handler runtime: embedded image is not a 64-bit executable");
    else if (eh.e_machine != rt->isa->elf_machine)
        set_error(err, errlen, "handler runtime: embedded image is for ELF machine %u, not %s",
             eh.e_machine, rt->isa->name);
    else
        ok = load_segments(rt, elf, image, size, err, errlen) &&
             load_symbols(rt, elf, err, errlen) && init_buffer(rt, err, errlen);
    if (elf) elf_end(elf);
    free(copy);
    if (!ok) return false;
    rt->symtab = symtab_load_memory(image, size);
    if (!rt->symtab) return set_error(err, errlen, "handler runtime: out of memory");
    return true;
}

runtime_t *runtime_load(const isa_t *isa, char *err, size_t errlen)
{
    if (!isa) {
        set_error(err, errlen, "handler runtime: no ISA");
        return NULL;
    }
    const embedded_runtime_t *e = NULL;
    for (size_t k = 0; k < sizeof embedded / sizeof embedded[0]; k++)
        if (embedded[k].elf_machine == isa->elf_machine) e = &embedded[k];
    if (!e) {
        set_error(err, errlen, "no DISE handler runtime for ISA %s yet: profiles that call "
             "handlers are not available for it", isa->name);
        return NULL;
    }
    mem_t *mem = mem_new();
    if (!mem) {
        set_error(err, errlen, "handler runtime: out of memory");
        return NULL;
    }
    runtime_t *rt = runtime_wrap(isa, mem, RUNTIME_BASE + RUNTIME_SIZE);
    bool ok = load_image(rt, e->start, (size_t)(e->end - e->start), err, errlen);
    if (ok && !mem_map(rt->mem, rt->stack_top - RUNTIME_STACK_SIZE,
                       RUNTIME_STACK_SIZE, MEM_PROT_READ | MEM_PROT_WRITE))
        ok = set_error(err, errlen, "handler runtime: cannot map the handler stack");
    if (!ok) {
        runtime_free(rt);
        return NULL;
    }
    return rt;
}

runtime_t *runtime_wrap(const isa_t *isa, mem_t *mem, uint64_t stack_top)
{
    runtime_t *rt = xcalloc(1, sizeof *rt);
    rt->isa = isa;
    rt->mem = mem;
    rt->stack_top = stack_top;
    rt->sp_reg = loader_layout(isa)->sp_reg;
    mem->special_ops = special_ops;
    return rt;
}

void runtime_free(runtime_t *rt)
{
    if (!rt) return;
    for (size_t k = 0; k < rt->nsyms; k++) free(rt->syms[k].name);
    free(rt->syms);
    symtab_free(rt->symtab);
    if (rt->mem) mem_free(rt->mem);
    free(rt);
}

struct mem *runtime_mem(const runtime_t *rt) { return rt->mem; }
const struct symtab *runtime_symtab(const runtime_t *rt) { return rt->symtab; }
uint64_t runtime_stack_top(const runtime_t *rt) { return rt->stack_top; }
uint64_t runtime_buffer(const runtime_t *rt) { return rt->buffer; }

uint64_t runtime_symbol(const runtime_t *rt, const char *name)
{
    const rt_symbol_t *s = rt && name ? find_symbol(rt, name) : NULL;
    return s ? s->addr : 0;
}

uint64_t runtime_symbol_size(const runtime_t *rt, const char *name)
{
    const rt_symbol_t *s = rt && name ? find_symbol(rt, name) : NULL;
    return s ? s->size : 0;
}

const char *const runtime_handlers_names[2] = { "c", "asm" };

void runtime_set_handlers(runtime_t *rt, runtime_handlers_t which) { rt->handlers = which; }
runtime_handlers_t runtime_handlers(const runtime_t *rt) { return rt->handlers; }

uint64_t runtime_handler(const runtime_t *rt, const char *name)
{
    if (!rt || !name) return 0;
    if (rt->handlers == RUNTIME_HANDLERS_C) return runtime_symbol(rt, name);
    char asm_name[128];
    if ((size_t)snprintf(asm_name, sizeof asm_name, "%s_asm", name) >= sizeof asm_name) return 0;
    return runtime_symbol(rt, asm_name);
}

/* The assembly handlers' samples run from the buffer's first to d14. */
static uint64_t first_sample(const runtime_t *rt)
{
    return rt->buffer + HPS_PROFILE_OFF_SAMPLES;
}

static bool register_buffer(const runtime_t *rt)
{
    return rt->handlers == RUNTIME_HANDLERS_ASM && rt->cpu && rt->buffer;
}

static uint64_t header_field(const runtime_t *rt, unsigned off)
{
    uint64_t v = 0;
    if (!mem_read(rt->mem, rt->buffer + off, &v, sizeof v)) return 0;
    return v;
}

uint64_t runtime_flushes(const runtime_t *rt)
{
    return header_field(rt, HPS_PROFILE_OFF_FLUSHES);
}

uint64_t runtime_dropped(const runtime_t *rt)
{
    return header_field(rt, HPS_PROFILE_OFF_DROPPED);
}

size_t runtime_drain(runtime_t *rt,
                          void (*fn)(void *ctx, const hps_sample_t *s), void *ctx)
{
    enum { CHUNK = 64 };
    uint64_t *next = register_buffer(rt) ? &rt->cpu->reg[REG_DISE0 + DREG_BUF_NEXT] : NULL;
    uint64_t n = next ? (*next - first_sample(rt)) / HPS_SAMPLE_SIZE
                      : header_field(rt, HPS_PROFILE_OFF_COUNT);
    if (n > HPS_PROFILE_CAPACITY) n = HPS_PROFILE_CAPACITY;  /* guest corrupted it */
    hps_sample_t chunk[CHUNK];
    for (uint64_t k = 0; k < n; k += CHUNK) {
        uint64_t m = n - k < CHUNK ? n - k : CHUNK;
        if (!mem_read(rt->mem, rt->buffer + HPS_PROFILE_OFF_SAMPLES + k * sizeof(hps_sample_t),
                      chunk, m * sizeof(hps_sample_t)))
            break;
        for (uint64_t j = 0; j < m && fn; j++) fn(ctx, &chunk[j]);
    }
    uint64_t zero = 0;
    mem_write(rt->mem, rt->buffer + HPS_PROFILE_OFF_COUNT, &zero, sizeof zero);
    if (next) *next = first_sample(rt);
    return (size_t)n;
}

/* ---- handler frames ------------------------------------------------------------ */

void runtime_attach(runtime_t *rt, cpu_t *c)
{
    c->runtime = rt;
    rt->cpu = c;
    c->reg[REG_DISE0 + DREG_HANDLER_SP] = rt->stack_top;
    if (register_buffer(rt)) {
        c->reg[REG_DISE0 + DREG_BUF_NEXT] = first_sample(rt);
        c->reg[REG_DISE0 + DREG_BUF_END] = first_sample(rt) +
                                           (uint64_t)HPS_SAMPLE_SIZE * HPS_PROFILE_CAPACITY;
    }
}

/* A nested handler's stack: below the interrupted handler's sp once that
 * has moved onto the runtime stack, else where the outer one starts. */
static uint64_t nested_stack(const runtime_t *rt, const cpu_t *c)
{
    uint64_t sp = c->reg[rt->sp_reg];
    if (sp > rt->stack_top - RUNTIME_STACK_SIZE + 1024 && sp <= rt->stack_top)
        return (sp - 64) & ~(uint64_t)15;
    return c->reg[REG_DISE0 + DREG_HANDLER_SP];
}

bool runtime_call(runtime_t *rt, cpu_t *c, runtime_client_t *client, uint64_t entry,
                  const uint64_t *args, unsigned nargs, uint8_t role)
{
    if (rt->st.depth == RUNTIME_MAX_DEPTH) return false;
    runtime_frame_t *f = &rt->st.frames[rt->st.depth++];
    f->client = client;
    f->resume_pc = c->pc;
    f->resume_mem = c->mem;
    f->role = role;
    uint64_t *d = &c->reg[REG_DISE0 + DREG_ARG0];
    if (rt->st.depth > 1) {
        memcpy(f->saved_dregs, d, sizeof f->saved_dregs);
        d[DREG_HANDLER_SP - DREG_ARG0] = nested_stack(rt, c);
    }
    for (unsigned k = 0; k < nargs && k < RUNTIME_MAX_ARGS; k++) d[k] = args[k];
    rt->mem->fault_jmp = c->mem->fault_jmp;
    c->mem = rt->mem;
    c->pc = entry;
    rt->st.switches++;
    return true;
}

/* Pop the top frame: back to where it was entered from. */
static const runtime_frame_t *pop_frame(runtime_t *rt, cpu_t *c)
{
    runtime_frame_t *f = &rt->st.frames[--rt->st.depth];
    /* the run loop that runs now guards the address space it resumes in
     * (a frame entered between run loops: csprof's trampoline, a trap) */
    f->resume_mem->fault_jmp = c->mem->fault_jmp;
    c->mem = f->resume_mem;
    c->pc = f->resume_pc;
    if (rt->st.depth)
        memcpy(&c->reg[REG_DISE0 + DREG_ARG0], f->saved_dregs, sizeof f->saved_dregs);
    rt->st.switches++;
    return f;
}

void runtime_unwind(runtime_t *rt, cpu_t *c)
{
    uint64_t pc = c->pc;
    while (rt->st.depth) pop_frame(rt, c);
    c->pc = pc;
}

static runtime_t *runtime_of(cpu_t *c)
{
    runtime_t *rt = c->runtime;
    if (!rt || !rt->st.depth) cpu_stop(c, STOP_ILLEGAL, 0);
    return rt;
}

static void exec_ret(cpu_t *c, insn_t *in)
{
    runtime_t *rt = runtime_of(c);
    const runtime_client_t *client = pop_frame(rt, c)->client;
    if (client->returned) client->returned(client->ctx, c);
}

static void exec_flush(cpu_t *c, insn_t *in)
{
    const runtime_client_t *client = runtime_top(runtime_of(c))->client;
    if (!client->flush) cpu_stop(c, STOP_ILLEGAL, 0);
    client->flush(client->ctx, c);
}

static void exec_notify(cpu_t *c, insn_t *in)
{
    const runtime_client_t *client = runtime_top(runtime_of(c))->client;
    if (!client->notify) cpu_stop(c, STOP_ILLEGAL, 0);
    client->notify(client->ctx, c, c->reg[in->rs1]);
}

static void exec_wrpmc(cpu_t *c, insn_t *in)
{
    const runtime_client_t *client = runtime_top(runtime_of(c))->client;
    if (!client->wrpmc) cpu_stop(c, STOP_ILLEGAL, 0);
    client->wrpmc(client->ctx, c, c->reg[in->rs1], c->reg[in->rs2]);
}

static void exec_rdpmc(cpu_t *c, insn_t *in)
{
    const runtime_client_t *client = runtime_top(runtime_of(c))->client;
    if (!client->rdpmc) cpu_stop(c, STOP_ILLEGAL, 0);
    c->reg[in->rd] = client->rdpmc(client->ctx, c, c->reg[in->rs1]);
}

/* The program's address space under the handler frames: the one the
 * first frame was entered from. */
static struct mem *program_mem(cpu_t *c)
{
    runtime_t *rt = runtime_of(c);
    return rt->st.frames[0].resume_mem;
}

/* hps.ldp: a doubleword of the program's memory (0 where it has none). */
static void exec_ldp(cpu_t *c, insn_t *in)
{
    uint64_t v = 0;
    if (!mem_read(program_mem(c), c->reg[in->rs1], &v, sizeof v)) v = 0;
    c->reg[in->rd] = v;
}

/* hps.stp: write a doubleword of the program's memory (where it is mapped). */
static void exec_stp(cpu_t *c, insn_t *in)
{
    uint64_t v = c->reg[in->rs2];
    mem_write(program_mem(c), c->reg[in->rs1], &v, sizeof v);
}
