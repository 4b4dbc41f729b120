/*
 * mem.h - sparse, paged guest memory.
 *
 * The guest address space is a radix table of 4 KiB pages (1 GiB regions,
 * 2 MiB leaves of page descriptors) whose host storage is allocated on
 * first touch.  Loads and stores go through a
 * small direct-mapped software TLB (separate read and write arrays) so the
 * common case is a tag compare and a host memory access.  A page that holds
 * decoded instructions never has a write-TLB entry: the first store to it
 * takes the slow path, which drops the page's decoded instructions so that
 * self-modifying code is seen.
 *
 * Bounds.  The guest's mapped pages are limited (mem_set_guest_limit,
 * --guest-mem: every mapping counts, touched or not, as Linux counts the
 * address-space size against RLIMIT_AS); a mapping over the limit is
 * refused.  The decoded instructions are a cache of bounded size: a code
 * page's decoded array is lazily committed host memory, recycled the moment
 * the page is unmapped, remapped or loses execute permission, and the
 * least recently entered page gives its array up when the cache is full.
 * Host allocations are charged to hostmem.h (--host-mem); one refused
 * during a run stops the guest through fault_jmp (mem->fault.host_oom).
 *
 * Faults (unmapped page, wrong permission) longjmp to mem->fault_jmp with the
 * fault recorded in mem->fault; the core turns that into a guest fault report.
 * The copy-in/copy-out calls used by the syscall layer never fault: they
 * return false and the syscall returns -EFAULT.
 */
#ifndef HPS_MEM_H
#define HPS_MEM_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "isa.h"

#define GUEST_PAGE_SHIFT 12
#define GUEST_PAGE_SIZE  (1ull << GUEST_PAGE_SHIFT)
#define GUEST_PAGE_MASK  (GUEST_PAGE_SIZE - 1)
#define GUEST_ADDR_BITS  48            /* guest addresses at or above 2^48 fault */
#define MEM_TLB_SIZE     1024          /* entries per TLB array, power of two   */
#define MEM_ITLB_SIZE    64            /* code pages cached for the run loops   */
#define MEM_SLOTS        (GUEST_PAGE_SIZE / 2)   /* decoded slots per code page:
                                                    one per 2-byte parcel      */
#define MEM_GUEST_LIMIT_DEFAULT (16ull << 30)    /* --guest-mem                 */
#define MEM_DECODED_LIMIT_DEFAULT (256ull << 20) /* decoded arrays held at once */

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

enum { MEM_PROT_READ = 1, MEM_PROT_WRITE = 2, MEM_PROT_EXEC = 4 };
enum { MEM_ACCESS_READ, MEM_ACCESS_WRITE, MEM_ACCESS_FETCH };

/* One guest page (40 bytes, kept in the leaves of the page table). */
typedef struct guest_page {
    uint8_t  *data;         /* GUEST_PAGE_SIZE bytes, NULL until first touched */
    insn_t   *decoded;      /* MEM_SLOTS decoded slots, or NULL                */
    uint64_t *touched;      /* one bit per 64-bit word, NULL until one is marked */
    uint64_t *evicted_ran;  /* slots that had run when the decoded cache evicted
                               the page (one bit each), or NULL               */
    uint32_t  code_idx;     /* index in mem->code while decoded != NULL        */
    uint8_t   prot;         /* MEM_PROT_*                                      */
    bool      mapped;
    bool      code_live;    /* some decoded slot is valid: no write-TLB entry  */
    bool      referenced;   /* entered since the decoded cache's hand passed   */
} guest_page_t;

typedef struct mem_tlb_entry {
    uint64_t  page;         /* guest address of the page, or ~0 when invalid   */
    uintptr_t addend;       /* host address = addend + guest address           */
} mem_tlb_entry_t;

/* A code page's decoded slots, cached for the run loops' page changes. */
typedef struct mem_itlb_entry {
    uint64_t tag;           /* guest page number, or ~0 when invalid           */
    insn_t  *slots;         /* the page's decoded array                        */
} mem_itlb_entry_t;

typedef struct mem_fault {
    uint64_t addr;
    int access;             /* MEM_ACCESS_*                                    */
    bool mapped;            /* page mapped but permission denied               */
    bool host_oom;          /* no fault of the guest's: --host-mem refused the
                               host memory for it (hostmem_failure() says what) */
} mem_fault_t;

/* A page holding decoded slots (the decoded cache's entries). */
typedef struct mem_code_page {
    guest_page_t *pg;
    uint64_t vpn;
} mem_code_page_t;

struct mem_mid;             /* a 1 GiB region of the page table (mem.c)        */

typedef struct mem {
    mem_tlb_entry_t rtlb[MEM_TLB_SIZE];
    mem_tlb_entry_t wtlb[MEM_TLB_SIZE];
    mem_itlb_entry_t itlb[MEM_ITLB_SIZE];   /* executable pages' decoded slots */
    struct mem_mid *dir[1u << (GUEST_ADDR_BITS - 30)]; /* 1 GiB regions     */
    uint64_t dir_used[(1u << (GUEST_ADDR_BITS - 30)) / 64];   /* bit d: dir[d] is
                               allocated (the walks of every page skip the rest) */
    jmp_buf *fault_jmp;     /* where a faulting access longjmps to            */
    mem_fault_t fault;
    uint64_t guest_limit;   /* bytes the guest may have mapped now            */
    uint64_t guest_cap;     /* ... at most (--guest-mem; RLIMIT_AS lowers the
                               limit below it)                                */
    uint64_t pages_mapped;  /* statistics                                     */
    uint64_t pages_touched;
    uint64_t pages_mapped_peak;
    uint64_t decoded_pages_dropped;
    uint64_t decoded_evictions; /* arrays the full decoded cache took back    */
    uint64_t touched_dropped;   /* unique-address bits of pages since unmapped */
    uint64_t touch_vpn;         /* the page mem_mark_touched marked last (~0:
                                   none) and its bitmap                       */
    uint64_t *touch_bits;
    /* the decoded cache: pages holding an array, the clock hand over them,
     * how many arrays it may hold, and arrays ready for reuse (their host
     * memory already given back) */
    mem_code_page_t *code;
    size_t ncode, code_cap, code_hand, code_max;
    insn_t **spare;
    size_t nspare, spare_cap;
    /* decoded-page invalidation hook: called before a page's decoded slots
     * are dropped so their ground-truth counts can be folded into totals. */
    void (*on_decoded_drop)(void *ctx, insn_t *slots, size_t n);
    void *on_decoded_drop_ctx;
    /* called before the decoded slots' counts are read or dropped: the run
     * loop's blocks (blocks.h) add the counts they hold back to the slots */
    void (*on_decoded_settle)(void *ctx);
    void *on_decoded_settle_ctx;
    /* moved on whenever a page's decoded slots are emptied, which every
     * change that stops code from running as decoded does (a store to it,
     * fence.i / imb, eviction, munmap, mprotect without exec): what was
     * looked up in an earlier epoch, such as a block's links to the blocks
     * after it (blocks.h), must be looked up again */
    uint64_t code_epoch;
    /* the semantics of the guest runtime's special instructions (isa.h
     * HPS_OP_*): set only on the runtime's own address space, the one
     * place they decode */
    const exec_fn *special_ops;
} mem_t;

mem_t *mem_new(void);
void   mem_free(mem_t *m);

/* Limits.  The guest limit counts mapped bytes (default
 * MEM_GUEST_LIMIT_DEFAULT); the decoded limit bounds the host bytes of
 * decoded arrays held at once (default MEM_DECODED_LIMIT_DEFAULT). */
void     mem_set_guest_limit(mem_t *m, uint64_t bytes);
/* The guest's own RLIMIT_AS: the limit becomes the lower of it and the
 * one mem_set_guest_limit set. */
void     mem_set_rlimit_as(mem_t *m, uint64_t bytes);
void     mem_set_decoded_limit(mem_t *m, uint64_t bytes);
uint64_t mem_mapped_bytes(const mem_t *m);
/* Bytes of [addr, addr+len) (whole pages) not mapped yet. */
uint64_t mem_unmapped_bytes(const mem_t *m, uint64_t addr, uint64_t len);
/* Could the guest map `more` bytes in addition to what it has? */
bool     mem_fits(const mem_t *m, uint64_t more);
/* Host bytes of one page's decoded array. */
uint64_t mem_decoded_array_bytes(void);

/* Mapping.  Addresses and lengths are rounded out to whole pages.  Return
 * false if the range is outside the guest address space, or the mapping
 * would take the guest over its limit (nothing is mapped then). */
bool mem_map(mem_t *m, uint64_t addr, uint64_t len, int prot);
void mem_unmap(mem_t *m, uint64_t addr, uint64_t len);
/* Map the pages of [start, end) for an ELF segment: a page already mapped
 * (shared with an earlier segment) keeps its contents and gets the union of
 * both protections. */
bool mem_map_union(mem_t *m, uint64_t start, uint64_t end, int prot);
/* Move the pages of [from, from+len) to [to, to+new_len), which must be
 * unmapped and apart from them (mremap): the first min(len, new_len) bytes
 * keep their contents and protections, the rest of the destination is
 * mapped fresh with prot, the rest of the source unmapped.  keep_source:
 * the source stays mapped, emptied (MREMAP_DONTUNMAP).  The caller checks
 * the guest limit first; false if the destination is outside the space. */
bool mem_move(mem_t *m, uint64_t from, uint64_t len, uint64_t to, uint64_t new_len, int prot,
              bool keep_source);
/* Write zeros to [addr, addr+len) (non-faulting, like mem_write). */
bool mem_zero(mem_t *m, uint64_t addr, uint64_t len);
bool mem_protect(mem_t *m, uint64_t addr, uint64_t len, int prot);
bool mem_is_mapped(const mem_t *m, uint64_t addr);
/* Highest free range of `len` bytes ending at or below `top`, or 0. */
uint64_t mem_find_free(const mem_t *m, uint64_t len, uint64_t bottom, uint64_t top);
guest_page_t *mem_page(const mem_t *m, uint64_t addr);   /* NULL if unmapped */
/* The first mapped page at or above addr (its address), or UINT64_MAX:
 * a walk over the mapped pages in address order (checkpoints). */
uint64_t mem_next_mapped(const mem_t *m, uint64_t addr);

/* Non-faulting copies for the loader and syscall layer (ignore protection
 * except that the page must be mapped).  Return false on an unmapped byte. */
bool mem_read(mem_t *m, uint64_t addr, void *buf, uint64_t len);
bool mem_write(mem_t *m, uint64_t addr, const void *buf, uint64_t len);
/* Copy a NUL-terminated string of at most max-1 chars; false if unmapped or
 * too long. */
bool mem_read_str(mem_t *m, uint64_t addr, char *buf, size_t max);

/* Drop every decoded instruction (fence.i, or after exec of new code).
 * Dropping zeroes the slots (exec = NULL) and gives their host memory back
 * but keeps the arrays attached, so a pointer the run loop holds stays
 * valid and simply re-decodes. */
void mem_flush_decoded(mem_t *m);
/* Decoded slots for the page holding pc, allocated on demand; faults if the
 * page is unmapped or not executable.  This is where the decoded cache
 * takes arrays back (from other pages): a run loop calls it only when it
 * leaves its cached page or decodes into it, and takes the array returned
 * as its page's from then on. */
insn_t *mem_decoded_page(mem_t *m, uint64_t pc);
/* mem_decoded_page() through the code-page cache: what a run loop calls
 * when the pc leaves the page it was on (calls and returns between pages
 * are frequent).  Entries are dropped with the page's mapping, protection
 * or decoded array; dropping the decoded instructions keeps the array, so
 * an entry stays valid then.  An array taken from its page stays readable
 * (zeros, so the run loop re-decodes) until it is handed to a page again,
 * which happens only in mem_decoded_page. */
static inline insn_t *mem_code_slots(mem_t *m, uint64_t pc)
{
    uint64_t vpn = pc >> GUEST_PAGE_SHIFT;
    const mem_itlb_entry_t *e = &m->itlb[vpn & (MEM_ITLB_SIZE - 1)];
    if (__builtin_expect(e->tag == vpn, 1)) return e->slots;
    return mem_decoded_page(m, pc);
}
/* Call fn on every page's decoded slots (for end-of-run statistics). */
void mem_for_each_decoded(const mem_t *m, void (*fn)(void *ctx, insn_t *slots, size_t n),
                          void *ctx);
/* Copy instruction bytes for decode, checking execute permission; faults. */
void mem_fetch(mem_t *m, uint64_t addr, uint8_t *buf, unsigned len);
/* The slot of pc was just decoded into: from now on stores to the page
 * must take the slow path.  A slot that had run before the decoded cache
 * evicted its page is marked IF_REDECODED (not a new static instruction). */
void mem_note_code(mem_t *m, uint64_t pc, insn_t *slot);

/* Slow paths of the inline accessors below; they fault via longjmp. */
uint64_t mem_load_slow(mem_t *m, uint64_t addr, unsigned size);
void     mem_store_slow(mem_t *m, uint64_t addr, uint64_t value, unsigned size);
_Noreturn void mem_raise(mem_t *m, uint64_t addr, int access, bool mapped);

/* An aligned access to the entry's page (an aligned access never crosses
 * a page; a misaligned one takes the slow path): one mask and compare. */
static inline bool mem_tlb_hit(const mem_tlb_entry_t *e, uint64_t addr, unsigned size)
{
    return (addr & (~(uint64_t)GUEST_PAGE_MASK | (size - 1))) == e->page;
}

/* mem_try_load / mem_try_store: the fast path alone, an aligned access to
 * a page in the TLB: true when it was done, false (nothing done) when the
 * slow path must do it.  A store's fast path never drops decoded code: a
 * page with decoded instructions is kept out of wtlb (mem_note_code). */
/* The entry of addr in a TLB array: its byte offset in one shift and mask. */
_Static_assert(sizeof(mem_tlb_entry_t) == 16, "mem_tlb_slot scales the index by 16");
static inline const mem_tlb_entry_t *mem_tlb_slot(const mem_tlb_entry_t *tlb, uint64_t addr)
{
    uintptr_t off = (addr >> (GUEST_PAGE_SHIFT - 4)) & ((uintptr_t)(MEM_TLB_SIZE - 1) << 4);
    return (const mem_tlb_entry_t *)((const char *)tlb + off);
}

#define MEM_DEFINE_LOAD(bits)                                                   \
    static inline bool mem_try_load##bits(const mem_t *m, uint64_t addr, uint64_t *v) \
    {                                                                           \
        const mem_tlb_entry_t *e = mem_tlb_slot(m->rtlb, addr);                 \
        if (!mem_tlb_hit(e, addr, bits / 8)) return false;                      \
        uint##bits##_t x;                                                       \
        memcpy(&x, (const void *)(e->addend + addr), sizeof x);                 \
        *v = x;                                                                 \
        return true;                                                            \
    }                                                                           \
    static inline uint64_t mem_load##bits(mem_t *m, uint64_t addr)              \
    {                                                                           \
        uint64_t v;                                                             \
        if (likely(mem_try_load##bits(m, addr, &v))) return v;                 \
        return mem_load_slow(m, addr, bits / 8);                                \
    }
MEM_DEFINE_LOAD(8)
MEM_DEFINE_LOAD(16)
MEM_DEFINE_LOAD(32)
MEM_DEFINE_LOAD(64)
#undef MEM_DEFINE_LOAD

#define MEM_DEFINE_STORE(bits)                                                  \
    static inline bool mem_try_store##bits(mem_t *m, uint64_t addr, uint64_t val) \
    {                                                                           \
        const mem_tlb_entry_t *e = mem_tlb_slot(m->wtlb, addr);                 \
        if (!mem_tlb_hit(e, addr, bits / 8)) return false;                      \
        uint##bits##_t v = (uint##bits##_t)val;                                 \
        memcpy((void *)(e->addend + addr), &v, sizeof v);                       \
        return true;                                                            \
    }                                                                           \
    static inline void mem_store##bits(mem_t *m, uint64_t addr, uint64_t val)   \
    {                                                                           \
        if (likely(mem_try_store##bits(m, addr, val))) return;                  \
        mem_store_slow(m, addr, val, bits / 8);                                 \
    }
MEM_DEFINE_STORE(8)
MEM_DEFINE_STORE(16)
MEM_DEFINE_STORE(32)
MEM_DEFINE_STORE(64)
#undef MEM_DEFINE_STORE

/* Mark the 64-bit words of [addr, addr+size) as touched (unique-address
 * statistic).  Only the ground-truth run loop calls this, once a load or
 * store: the page marked last is remembered (touch_vpn, touch_bits). */
void mem_mark_touched_slow(mem_t *m, uint64_t addr, unsigned size);
static inline void mem_mark_touched(mem_t *m, uint64_t addr, unsigned size)
{
    uint64_t w = addr >> 3;
    if (likely(((addr + size - 1) >> 3) == w && w >> (GUEST_PAGE_SHIFT - 3) == m->touch_vpn)) {
        m->touch_bits[(w >> 6) & (GUEST_PAGE_SIZE / 8 / 64 - 1)] |= 1ull << (w & 63);
        return;
    }
    mem_mark_touched_slow(m, addr, size);
}
uint64_t mem_count_touched(const mem_t *m);

#endif /* HPS_MEM_H */
