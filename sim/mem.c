/*
 * mem.c - sparse paged guest memory with a software TLB, bounded.
 *
 * Layout: dir[addr >> 30] points to a mid table of 512 leaves (one 1 GiB
 * region), each leaf holds the descriptors of 512 pages (2 MiB of guest
 * addresses, 20 KiB of host memory).  Mid tables and leaves are allocated
 * when a page in them is first mapped and freed when their last page is
 * unmapped, so the page table costs about 40 bytes a mapped page; a page's
 * host bytes are allocated on first touch, so large sparse mmaps cost
 * little until used.
 *
 * The TLBs cache (guest page -> host address) for reads and writes
 * separately.  Pages that hold decoded instructions get no write entry, so
 * stores to code fall into mem_store_slow, which drops the decoded slots.
 *
 * The decoded cache.  A code page's decoded array (MEM_SLOTS insn_t, one
 * per 2-byte parcel: the run loop finds a pc's record with one index, which
 * is what makes it fast) is an anonymous host mapping of its own, committed
 * page by page as slots are written.  Dropping a page's decoded
 * instructions (a store to the page, fence.i) hands the array's memory back
 * to the host at once (MADV_DONTNEED: it reads as zeros again) and keeps it
 * attached; unmapping, remapping, moving the page or taking its execute
 * permission detaches the array onto a spare list for the next code page.
 * The cache holds at most code_max arrays: past that the least recently
 * entered page (a clock over the pages, marked when a run loop enters them)
 * gives its array up, after its counts are folded into the totals through
 * on_decoded_drop, exactly as when it is dropped.  So host memory for code
 * follows what runs now, never what ever ran, and a guest that maps, runs
 * and unmaps code in a loop reuses the same arrays.
 *
 * Host memory that grows with the guest (leaves, mid tables, data pages,
 * unique-word bitmaps, decoded arrays) is charged to hostmem.h; when
 * --host-mem refuses it during a run the access stops the guest through
 * fault_jmp with fault.host_oom set.
 */
#include "mem.h"
#include "hostmem.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define REGION_SHIFT 30
#define LEAF_SHIFT   21
#define MID_LEAVES   (1u << (REGION_SHIFT - LEAF_SHIFT))
#define LEAF_PAGES   (1u << (LEAF_SHIFT - GUEST_PAGE_SHIFT))
#define DIR_SIZE     (1u << (GUEST_ADDR_BITS - REGION_SHIFT))
#define WORD_BITS    (GUEST_PAGE_SIZE / 8)          /* unique-word bits a page */
#define BITMAP_BYTES(bits) ((bits) / 8)

typedef struct mem_leaf {
    guest_page_t page[LEAF_PAGES];
    unsigned mapped;                    /* pages of this leaf mapped */
} mem_leaf_t;

struct mem_mid {
    mem_leaf_t *leaf[MID_LEAVES];
    unsigned leaves;                    /* leaves allocated */
};

/* ---- TLBs ------------------------------------------------------------------ */

static void tlb_invalidate_all(mem_t *m)
{
    memset(m->rtlb, 0xff, sizeof m->rtlb);
    memset(m->wtlb, 0xff, sizeof m->wtlb);
    for (unsigned k = 0; k < MEM_ITLB_SIZE; k++) m->itlb[k].tag = ~0ull;
}

static void tlb_invalidate_page(mem_t *m, uint64_t addr)
{
    uint64_t vpn = addr >> GUEST_PAGE_SHIFT;
    unsigned idx = vpn & (MEM_TLB_SIZE - 1);
    uint64_t page = vpn << GUEST_PAGE_SHIFT;
    if (m->rtlb[idx].page == page) m->rtlb[idx].page = ~0ull;
    if (m->wtlb[idx].page == page) m->wtlb[idx].page = ~0ull;
    mem_itlb_entry_t *ie = &m->itlb[vpn & (MEM_ITLB_SIZE - 1)];
    if (ie->tag == vpn) ie->tag = ~0ull;
}

/* ---- host memory ----------------------------------------------------------- */

/* --host-mem refused memory for an access to addr: stop the run if one is
 * going (the core reports it from hostmem_failure()), else tell the caller
 * (false). */
static bool host_refused(mem_t *m, uint64_t addr, int access)
{
    m->fault = (mem_fault_t){ .addr = addr, .access = access, .host_oom = true };
    if (m->fault_jmp) longjmp(*m->fault_jmp, 1);
    return false;
}

/* calloc charged to hostmem; NULL when refused. */
static void *host_calloc(size_t size, const char *what)
{
    if (!hostmem_take(size, what)) return NULL;
    return xcalloc(1, size);
}

/* As host_calloc, for bytes the caller overwrites whole: not zeroed. */
static void *host_malloc(size_t size, const char *what)
{
    if (!hostmem_take(size, what)) return NULL;
    return xrealloc(NULL, size);
}

static void host_free(void *p, size_t size)
{
    if (!p) return;
    free(p);
    hostmem_give(size);
}

/* ---- decoded arrays ---------------------------------------------------------- */

uint64_t mem_decoded_array_bytes(void)
{
    static uint64_t bytes;
    if (!bytes) {
        long ps = sysconf(_SC_PAGESIZE);
        uint64_t host_page = ps > 0 ? (uint64_t)ps : 4096;
        bytes = (MEM_SLOTS * sizeof(insn_t) + host_page - 1) / host_page * host_page;
    }
    return bytes;
}

/* A fresh array: zero, committed only where written.  NULL if the host has
 * no address space left. */
static insn_t *slots_new(void)
{
    void *p = mmap(NULL, mem_decoded_array_bytes(), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* Zero an array by giving its memory back to the host. */
static void slots_clear(insn_t *slots)
{
    if (madvise(slots, mem_decoded_array_bytes(), MADV_DONTNEED) != 0)
        memset(slots, 0, mem_decoded_array_bytes());
}

static void slots_unmap(insn_t *slots) { munmap(slots, mem_decoded_array_bytes()); }

/* A slot index's bit in a page's evicted_ran bitmap. */
static bool bit_get(const uint64_t *bits, size_t k) { return bits[k >> 6] >> (k & 63) & 1; }
static void bit_set(uint64_t *bits, size_t k) { bits[k >> 6] |= 1ull << (k & 63); }

static void free_evicted_ran(guest_page_t *pg)
{
    host_free(pg->evicted_ran, BITMAP_BYTES(MEM_SLOTS));
    pg->evicted_ran = NULL;
}

/* Empty a page's decoded array: the counts go to the hook, the memory
 * back to the host; the array stays the page's. */
static void fold_decoded(mem_t *m, guest_page_t *pg)
{
    if (!pg->decoded || !pg->code_live) return;
    if (m->on_decoded_settle) m->on_decoded_settle(m->on_decoded_settle_ctx);
    m->code_epoch++;                    /* every way code stops running comes here */
    if (m->on_decoded_drop) m->on_decoded_drop(m->on_decoded_drop_ctx, pg->decoded, MEM_SLOTS);
    slots_clear(pg->decoded);
    pg->code_live = false;
    m->decoded_pages_dropped++;
}

/* Invalidate a page's decoded instructions (its code may have changed:
 * what runs next is new). */
static void drop_decoded(mem_t *m, guest_page_t *pg)
{
    if (!pg->decoded || !pg->code_live) return;
    fold_decoded(m, pg);
    free_evicted_ran(pg);
}

/* Take the array of the page at code[idx] back onto the spare list. */
static void code_detach_at(mem_t *m, size_t idx)
{
    guest_page_t *pg = m->code[idx].pg;
    uint64_t vpn = m->code[idx].vpn;
    if (pg->code_live) fold_decoded(m, pg);
    else slots_clear(pg->decoded);
    if (m->nspare == m->spare_cap) {
        m->spare_cap = m->spare_cap ? 2 * m->spare_cap : 16;
        m->spare = xrealloc(m->spare, m->spare_cap * sizeof *m->spare);
    }
    m->spare[m->nspare++] = pg->decoded;
    hostmem_give(mem_decoded_array_bytes());
    pg->decoded = NULL;
    pg->referenced = false;
    m->code[idx] = m->code[--m->ncode];
    if (idx < m->ncode) m->code[idx].pg->code_idx = (uint32_t)idx;
    tlb_invalidate_page(m, vpn << GUEST_PAGE_SHIFT);
}

static void code_detach(mem_t *m, guest_page_t *pg)
{
    if (pg->decoded) code_detach_at(m, pg->code_idx);
}

/* Remember which slots of an evicted page had run, so that decoding them
 * again does not count them as new static instructions.  Without the
 * host memory for the bitmap they will be counted again. */
static void note_evicted(mem_t *m, guest_page_t *pg)
{
    if (!pg->code_live) return;
    if (m->on_decoded_settle) m->on_decoded_settle(m->on_decoded_settle_ctx);
    if (!pg->evicted_ran) {
        if (!hostmem_fits(BITMAP_BYTES(MEM_SLOTS))) return;     /* no refusal to report */
        pg->evicted_ran = host_calloc(BITMAP_BYTES(MEM_SLOTS), "a code page's eviction bitmap");
    }
    for (size_t k = 0; k < MEM_SLOTS; k++)
        if (pg->decoded[k].exec && pg->decoded[k].count) bit_set(pg->evicted_ran, k);
}

/* The clock: the first page not entered since the hand last passed gives
 * its array up.  False if the cache is empty. */
static bool code_evict_one(mem_t *m)
{
    for (size_t scanned = 0; m->ncode && scanned <= 2 * m->ncode; scanned++) {
        if (m->code_hand >= m->ncode) m->code_hand = 0;
        guest_page_t *pg = m->code[m->code_hand].pg;
        if (pg->referenced) {
            pg->referenced = false;
            m->code_hand++;
            continue;
        }
        note_evicted(m, pg);
        code_detach_at(m, m->code_hand);    /* the last entry moves here */
        m->decoded_evictions++;
        return true;
    }
    return false;
}

/* Give pg (at vpn) an array: a spare one or a new one, after the cache has
 * made room.  Refusal of the host memory stops the run. */
static void code_attach(mem_t *m, guest_page_t *pg, uint64_t vpn)
{
    uint64_t bytes = mem_decoded_array_bytes();
    while (m->ncode && (m->ncode >= m->code_max || !hostmem_fits(bytes)))
        if (!code_evict_one(m)) break;
    if (!hostmem_take(bytes, "the decoded instructions of a code page")) {
        host_refused(m, vpn << GUEST_PAGE_SHIFT, MEM_ACCESS_FETCH);
        fprintf(stderr, "hps-sim: internal error: host memory refused outside the run loop\n");
        exit(70);
    }
    insn_t *slots = m->nspare ? m->spare[--m->nspare] : slots_new();
    if (!slots) {
        fprintf(stderr, "hps-sim: out of host address space for decoded instructions\n");
        exit(70);
    }
    if (m->ncode == m->code_cap) {
        m->code_cap = m->code_cap ? 2 * m->code_cap : 64;
        m->code = xrealloc(m->code, m->code_cap * sizeof *m->code);
    }
    pg->code_idx = (uint32_t)m->ncode;
    m->code[m->ncode++] = (mem_code_page_t){ pg, vpn };
    pg->decoded = slots;
}

/* ---- the page table ---------------------------------------------------------- */

mem_t *mem_new(void)
{
    mem_t *m = xcalloc(1, sizeof *m);
    tlb_invalidate_all(m);
    mem_set_guest_limit(m, MEM_GUEST_LIMIT_DEFAULT);
    m->touch_vpn = ~0ull;
    mem_set_decoded_limit(m, MEM_DECODED_LIMIT_DEFAULT);
    return m;
}

void mem_set_guest_limit(mem_t *m, uint64_t bytes) { m->guest_limit = m->guest_cap = bytes; }

void mem_set_rlimit_as(mem_t *m, uint64_t bytes)
{
    m->guest_limit = bytes < m->guest_cap ? bytes : m->guest_cap;
}

void mem_set_decoded_limit(mem_t *m, uint64_t bytes)
{
    uint64_t n = bytes / mem_decoded_array_bytes();
    m->code_max = !bytes ? SIZE_MAX : n ? (size_t)n : 1;
}

static bool addr_valid(uint64_t addr) { return (addr >> GUEST_ADDR_BITS) == 0; }

static bool range_valid(uint64_t addr, uint64_t len)
{
    uint64_t end = addr + len;
    return end >= addr && addr_valid(addr) && (end == 0 || addr_valid(end - 1));
}

static mem_leaf_t *leaf_of(const mem_t *m, uint64_t addr)
{
    const struct mem_mid *mid = m->dir[addr >> REGION_SHIFT];
    return mid ? mid->leaf[(addr >> LEAF_SHIFT) & (MID_LEAVES - 1)] : NULL;
}

static guest_page_t *leaf_page(mem_leaf_t *leaf, uint64_t addr)
{
    return &leaf->page[(addr >> GUEST_PAGE_SHIFT) & (LEAF_PAGES - 1)];
}

guest_page_t *mem_page(const mem_t *m, uint64_t addr)
{
    if (!addr_valid(addr)) return NULL;
    mem_leaf_t *leaf = leaf_of(m, addr);
    if (!leaf) return NULL;
    guest_page_t *pg = leaf_page(leaf, addr);
    return pg->mapped ? pg : NULL;
}

/* The leaf holding addr, allocated if need be; NULL when --host-mem
 * refuses it. */
static mem_leaf_t *leaf_get(mem_t *m, uint64_t addr)
{
    unsigned d = (unsigned)(addr >> REGION_SHIFT);
    struct mem_mid **mid = &m->dir[d];
    if (!*mid) {
        if (!(*mid = host_calloc(sizeof **mid, "the page table of the guest"))) return NULL;
        m->dir_used[d / 64] |= 1ull << (d % 64);
    }
    mem_leaf_t **leaf = &(*mid)->leaf[(addr >> LEAF_SHIFT) & (MID_LEAVES - 1)];
    if (!*leaf) {
        if (!(*leaf = host_calloc(sizeof **leaf, "the page table of the guest"))) return NULL;
        (*mid)->leaves++;
    }
    return *leaf;
}

/* Free the leaf holding addr once it maps nothing (and its mid table once
 * it has no leaf). */
static void leaf_put(mem_t *m, uint64_t addr)
{
    unsigned d = (unsigned)(addr >> REGION_SHIFT);
    struct mem_mid **mid = &m->dir[d];
    mem_leaf_t **leaf = &(*mid)->leaf[(addr >> LEAF_SHIFT) & (MID_LEAVES - 1)];
    if ((*leaf)->mapped) return;
    host_free(*leaf, sizeof **leaf);
    *leaf = NULL;
    if (--(*mid)->leaves) return;
    host_free(*mid, sizeof **mid);
    *mid = NULL;
    m->dir_used[d / 64] &= ~(1ull << (d % 64));
}

/* The first allocated region at or after d, or DIR_SIZE. */
static unsigned next_mid(const mem_t *m, unsigned d)
{
    for (unsigned w = d / 64; w < DIR_SIZE / 64; w++) {
        uint64_t bits = m->dir_used[w];
        if (w == d / 64) bits &= ~0ull << (d % 64);
        if (bits) return w * 64 + (unsigned)__builtin_ctzll(bits);
    }
    return DIR_SIZE;
}

/* Where the walk of [a, end) goes on after addr when its leaf is absent. */
static uint64_t skip_absent(const mem_t *m, uint64_t a)
{
    uint64_t shift = m->dir[a >> REGION_SHIFT] ? LEAF_SHIFT : REGION_SHIFT;
    return ((a >> shift) + 1) << shift;
}

static void forget_touched(mem_t *m, guest_page_t *pg);

static unsigned page_touched_count(const guest_page_t *pg)
{
    unsigned n = 0;
    for (unsigned k = 0; pg->touched && k < WORD_BITS / 64; k++)
        n += (unsigned)__builtin_popcountll(pg->touched[k]);
    return n;
}

/* Release a page's contents (unmapped, replaced, or moved away): its
 * decoded array, data and bitmaps; its counted words stay counted. */
static void page_release(mem_t *m, guest_page_t *pg)
{
    code_detach(m, pg);
    free_evicted_ran(pg);
    m->touched_dropped += page_touched_count(pg);
    forget_touched(m, pg);
    host_free(pg->touched, BITMAP_BYTES(WORD_BITS));
    pg->touched = NULL;
    host_free(pg->data, GUEST_PAGE_SIZE);
    pg->data = NULL;
    pg->code_live = false;
}

void mem_free(mem_t *m)
{
    if (!m) return;
    for (size_t k = 0; k < m->ncode; k++) {     /* no hook: nobody counts now */
        slots_unmap(m->code[k].pg->decoded);
        m->code[k].pg->decoded = NULL;
        hostmem_give(mem_decoded_array_bytes());
    }
    m->ncode = 0;
    for (unsigned d = next_mid(m, 0); d < DIR_SIZE; d = next_mid(m, d + 1)) {
        struct mem_mid *mid = m->dir[d];
        for (unsigned l = 0; mid && l < MID_LEAVES; l++) {
            mem_leaf_t *leaf = mid->leaf[l];
            for (unsigned p = 0; leaf && p < LEAF_PAGES; p++)
                if (leaf->page[p].mapped) page_release(m, &leaf->page[p]);
            host_free(leaf, sizeof *leaf);
        }
        host_free(mid, sizeof *mid);
    }
    for (size_t k = 0; k < m->nspare; k++) slots_unmap(m->spare[k]);
    free(m->spare);
    free(m->code);
    free(m);
}

/* ---- the guest limit ------------------------------------------------------- */

uint64_t mem_mapped_bytes(const mem_t *m) { return m->pages_mapped * GUEST_PAGE_SIZE; }

uint64_t mem_unmapped_bytes(const mem_t *m, uint64_t addr, uint64_t len)
{
    uint64_t start = addr & ~GUEST_PAGE_MASK;
    uint64_t end = (addr + len + GUEST_PAGE_MASK) & ~GUEST_PAGE_MASK;
    if (!len || end <= start) return 0;
    uint64_t mapped = 0;
    for (uint64_t a = start; a < end && addr_valid(a);) {
        mem_leaf_t *leaf = leaf_of(m, a);
        if (!leaf) { a = skip_absent(m, a); continue; }
        if (leaf_page(leaf, a)->mapped) mapped += GUEST_PAGE_SIZE;
        a += GUEST_PAGE_SIZE;
    }
    return end - start - mapped;
}

bool mem_fits(const mem_t *m, uint64_t more)
{
    uint64_t have = mem_mapped_bytes(m);
    return more <= m->guest_limit && have <= m->guest_limit - more;
}

static void note_peak(mem_t *m)
{
    if (m->pages_mapped > m->pages_mapped_peak) m->pages_mapped_peak = m->pages_mapped;
}

/* ---- mapping ------------------------------------------------------------------- */

/* Map the page at a (fresh and zero if it was mapped); false when
 * --host-mem refuses its leaf. */
static bool map_page(mem_t *m, uint64_t a, int prot)
{
    mem_leaf_t *leaf = leaf_get(m, a);
    if (!leaf) return host_refused(m, a, MEM_ACCESS_WRITE);
    guest_page_t *pg = leaf_page(leaf, a);
    if (pg->mapped) {
        page_release(m, pg);
    } else {
        pg->mapped = true;
        leaf->mapped++;
        m->pages_mapped++;
    }
    pg->prot = (uint8_t)prot;
    tlb_invalidate_page(m, a);
    return true;
}

static void unmap_page(mem_t *m, mem_leaf_t *leaf, uint64_t a)
{
    guest_page_t *pg = leaf_page(leaf, a);
    if (!pg->mapped) return;
    page_release(m, pg);
    memset(pg, 0, sizeof *pg);
    leaf->mapped--;
    m->pages_mapped--;
    tlb_invalidate_page(m, a);
    leaf_put(m, a);
}

bool mem_map(mem_t *m, uint64_t addr, uint64_t len, int prot)
{
    uint64_t start = addr & ~GUEST_PAGE_MASK;
    uint64_t end = (addr + len + GUEST_PAGE_MASK) & ~GUEST_PAGE_MASK;
    if (len == 0 || !range_valid(start, end - start)) return false;
    if (!mem_fits(m, mem_unmapped_bytes(m, start, end - start))) return false;
    for (uint64_t a = start; a < end; a += GUEST_PAGE_SIZE) {
        if (!map_page(m, a, prot)) {
            note_peak(m);
            return false;
        }
    }
    note_peak(m);
    return true;
}

void mem_unmap(mem_t *m, uint64_t addr, uint64_t len)
{
    uint64_t start = addr & ~GUEST_PAGE_MASK;
    uint64_t end = (addr + len + GUEST_PAGE_MASK) & ~GUEST_PAGE_MASK;
    if (len == 0 || !range_valid(start, end - start)) return;
    for (uint64_t a = start; a < end;) {
        mem_leaf_t *leaf = leaf_of(m, a);
        if (!leaf) { a = skip_absent(m, a); continue; }
        unmap_page(m, leaf, a);
        a += GUEST_PAGE_SIZE;
    }
}

uint64_t mem_next_mapped(const mem_t *m, uint64_t addr)
{
    for (uint64_t a = addr & ~GUEST_PAGE_MASK; addr_valid(a);) {
        mem_leaf_t *leaf = leaf_of(m, a);
        if (!leaf) a = skip_absent(m, a);
        else if (!leaf->mapped) a = ((a >> LEAF_SHIFT) + 1) << LEAF_SHIFT;
        else if (leaf_page(leaf, a)->mapped) return a;
        else a += GUEST_PAGE_SIZE;
    }
    return UINT64_MAX;
}

bool mem_protect(mem_t *m, uint64_t addr, uint64_t len, int prot)
{
    uint64_t start = addr & ~GUEST_PAGE_MASK;
    uint64_t end = (addr + len + GUEST_PAGE_MASK) & ~GUEST_PAGE_MASK;
    if (!range_valid(start, end - start)) return false;
    for (uint64_t a = start; a < end; a += GUEST_PAGE_SIZE)
        if (!mem_page(m, a)) return false;
    for (uint64_t a = start; a < end; a += GUEST_PAGE_SIZE) {
        guest_page_t *pg = mem_page(m, a);
        if (!(prot & MEM_PROT_EXEC)) code_detach(m, pg);   /* it cannot run now */
        pg->prot = (uint8_t)prot;
        tlb_invalidate_page(m, a);
    }
    return true;
}

bool mem_map_union(mem_t *m, uint64_t start, uint64_t end, int prot)
{
    for (uint64_t a = start & ~GUEST_PAGE_MASK; a < end; a += GUEST_PAGE_SIZE) {
        const guest_page_t *pg = mem_page(m, a);
        bool ok = pg ? mem_protect(m, a, GUEST_PAGE_SIZE, pg->prot | prot)
                     : mem_map(m, a, GUEST_PAGE_SIZE, prot);
        if (!ok) return false;
    }
    return true;
}

/* Move the page at from to the unmapped page at to: its descriptor (data,
 * protection) goes over; its decoded slots, which name their pcs, and its
 * counted words, which name their addresses, stay behind as dropped. */
static bool move_page(mem_t *m, uint64_t from, uint64_t to)
{
    mem_leaf_t *dst = leaf_get(m, to);
    if (!dst) return host_refused(m, to, MEM_ACCESS_WRITE);
    mem_leaf_t *src = leaf_of(m, from);
    guest_page_t *s = leaf_page(src, from), *d = leaf_page(dst, to);
    code_detach(m, s);
    free_evicted_ran(s);
    m->touched_dropped += page_touched_count(s);
    forget_touched(m, s);
    host_free(s->touched, BITMAP_BYTES(WORD_BITS));
    s->touched = NULL;
    *d = *s;
    memset(s, 0, sizeof *s);
    dst->mapped++;
    src->mapped--;
    tlb_invalidate_page(m, from);
    tlb_invalidate_page(m, to);
    leaf_put(m, from);
    return true;
}

bool mem_move(mem_t *m, uint64_t from, uint64_t len, uint64_t to, uint64_t new_len, int prot,
              bool keep_source)
{
    if (!range_valid(to, new_len) || !range_valid(from, len)) return false;
    mem_unmap(m, to, new_len);
    uint64_t n = len < new_len ? len : new_len;
    for (uint64_t k = 0; k < n; k += GUEST_PAGE_SIZE) {
        int page_prot = mem_page(m, from + k) ? mem_page(m, from + k)->prot : -1;
        if (page_prot < 0) continue;
        if (!move_page(m, from + k, to + k)) return false;
        if (keep_source && !map_page(m, from + k, page_prot)) return false;
    }
    if (len > n) mem_unmap(m, from + n, len - n);
    for (uint64_t k = n; k < new_len; k += GUEST_PAGE_SIZE)
        if (!map_page(m, to + k, prot)) return false;
    note_peak(m);
    return true;
}

bool mem_zero(mem_t *m, uint64_t addr, uint64_t len)
{
    static const uint8_t zeros[256];
    while (len) {
        uint64_t n = len < sizeof zeros ? len : sizeof zeros;
        if (!mem_write(m, addr, zeros, n)) return false;
        addr += n;
        len -= n;
    }
    return true;
}

bool mem_is_mapped(const mem_t *m, uint64_t addr) { return mem_page(m, addr) != NULL; }

uint64_t mem_find_free(const mem_t *m, uint64_t len, uint64_t bottom, uint64_t top)
{
    len = (len + GUEST_PAGE_MASK) & ~GUEST_PAGE_MASK;
    top &= ~GUEST_PAGE_MASK;
    if (len == 0 || top < bottom || top - bottom < len) return 0;
    uint64_t end = top;                      /* candidate range [end-len, end) */
    while (end - bottom >= len) {
        uint64_t a = end;
        while (a > end - len && !mem_page(m, a - GUEST_PAGE_SIZE)) a -= GUEST_PAGE_SIZE;
        if (a == end - len) return a;
        end = a - GUEST_PAGE_SIZE;           /* skip below the mapped page */
        if (end < bottom) break;
    }
    return 0;
}

/* ---- access -------------------------------------------------------------------- */

/* Host bytes of a page, allocated on first touch, zeroed unless the caller
 * is about to write all of them (whole); NULL (or a stop of the run) when
 * --host-mem refuses them. */
static uint8_t *page_data_for(mem_t *m, guest_page_t *pg, uint64_t addr, int access, bool whole)
{
    if (!pg->data) {
        pg->data = whole ? host_malloc(GUEST_PAGE_SIZE, "a guest data page")
                         : host_calloc(GUEST_PAGE_SIZE, "a guest data page");
        if (!pg->data) {
            host_refused(m, addr, access);
            return NULL;
        }
        m->pages_touched++;
    }
    return pg->data;
}

static uint8_t *page_data(mem_t *m, guest_page_t *pg, uint64_t addr, int access)
{
    return page_data_for(m, pg, addr, access, false);
}

_Noreturn void mem_raise(mem_t *m, uint64_t addr, int access, bool mapped)
{
    m->fault.addr = addr;
    m->fault.access = access;
    m->fault.mapped = mapped;
    m->fault.host_oom = false;
    if (!m->fault_jmp) {
        fprintf(stderr, "hps-sim: internal error: guest memory fault at 0x%llx "
                "outside the run loop\n", (unsigned long long)addr);
        exit(70);
    }
    longjmp(*m->fault_jmp, 1);
}

/* Host bytes for a CPU access (which faults on refusal); exits if no run
 * is going to stop. */
static uint8_t *access_data(mem_t *m, guest_page_t *pg, uint64_t addr, int access)
{
    uint8_t *data = page_data(m, pg, addr, access);
    if (!data) {
        fprintf(stderr, "hps-sim: internal error: host memory refused outside the run loop\n");
        exit(70);
    }
    return data;
}

/* Translate one page for a CPU access, checking permissions, and refill the
 * corresponding TLB entry.  Returns the host address of `addr`. */
static uint8_t *translate(mem_t *m, uint64_t addr, int access)
{
    guest_page_t *pg = mem_page(m, addr);
    int need = access == MEM_ACCESS_WRITE ? MEM_PROT_WRITE
             : access == MEM_ACCESS_FETCH ? MEM_PROT_EXEC : MEM_PROT_READ;
    if (!pg) mem_raise(m, addr, access, false);
    if (!(pg->prot & need)) mem_raise(m, addr, access, true);
    uint8_t *data = access_data(m, pg, addr, access);
    uint64_t vpn = addr >> GUEST_PAGE_SHIFT;
    mem_tlb_entry_t *e;
    if (access == MEM_ACCESS_WRITE) {
        drop_decoded(m, pg);                 /* self-modifying code */
        e = &m->wtlb[vpn & (MEM_TLB_SIZE - 1)];
    } else if (access == MEM_ACCESS_READ) {
        e = &m->rtlb[vpn & (MEM_TLB_SIZE - 1)];
    } else {
        return data + (addr & GUEST_PAGE_MASK);
    }
    e->page = vpn << GUEST_PAGE_SHIFT;
    e->addend = (uintptr_t)data - (uintptr_t)e->page;
    return data + (addr & GUEST_PAGE_MASK);
}

uint64_t mem_load_slow(mem_t *m, uint64_t addr, unsigned size)
{
    uint64_t value = 0;
    if ((addr & GUEST_PAGE_MASK) <= GUEST_PAGE_SIZE - size) {
        memcpy(&value, translate(m, addr, MEM_ACCESS_READ), size);
        return value;
    }
    /* Misaligned access across a page boundary: byte by byte (little endian). */
    for (unsigned k = 0; k < size; k++)
        value |= (uint64_t)*translate(m, addr + k, MEM_ACCESS_READ) << (8 * k);
    return value;
}

void mem_store_slow(mem_t *m, uint64_t addr, uint64_t value, unsigned size)
{
    if ((addr & GUEST_PAGE_MASK) <= GUEST_PAGE_SIZE - size) {
        memcpy(translate(m, addr, MEM_ACCESS_WRITE), &value, size);
        return;
    }
    for (unsigned k = 0; k < size; k++)   /* check both pages before writing */
        translate(m, addr + k, MEM_ACCESS_WRITE);
    for (unsigned k = 0; k < size; k++)
        *translate(m, addr + k, MEM_ACCESS_WRITE) = (uint8_t)(value >> (8 * k));
}

bool mem_read(mem_t *m, uint64_t addr, void *buf, uint64_t len)
{
    uint8_t *out = buf;
    while (len) {
        guest_page_t *pg = mem_page(m, addr);
        if (!pg) return false;
        uint64_t off = addr & GUEST_PAGE_MASK;
        uint64_t n = GUEST_PAGE_SIZE - off < len ? GUEST_PAGE_SIZE - off : len;
        if (pg->data) memcpy(out, pg->data + off, n);
        else memset(out, 0, n);
        out += n; addr += n; len -= n;
    }
    return true;
}

bool mem_write(mem_t *m, uint64_t addr, const void *buf, uint64_t len)
{
    const uint8_t *in = buf;
    for (uint64_t a = addr & ~GUEST_PAGE_MASK; a < addr + len; a += GUEST_PAGE_SIZE)
        if (!mem_page(m, a)) return false;
    while (len) {
        guest_page_t *pg = mem_page(m, addr);
        uint64_t off = addr & GUEST_PAGE_MASK;
        uint64_t n = GUEST_PAGE_SIZE - off < len ? GUEST_PAGE_SIZE - off : len;
        /* a page first touched by a copy of all of it is not zeroed first */
        uint8_t *data = page_data_for(m, pg, addr, MEM_ACCESS_WRITE, n == GUEST_PAGE_SIZE);
        if (!data) return false;
        drop_decoded(m, pg);
        memcpy(data + off, in, n);
        tlb_invalidate_page(m, addr);
        in += n; addr += n; len -= n;
    }
    return true;
}

bool mem_read_str(mem_t *m, uint64_t addr, char *buf, size_t max)
{
    for (size_t k = 0; k < max; k++) {
        guest_page_t *pg = mem_page(m, addr + k);
        if (!pg) return false;
        uint64_t off = (addr + k) & GUEST_PAGE_MASK;
        buf[k] = pg->data ? (char)pg->data[off] : 0;
        if (!buf[k]) return true;
    }
    return false;
}

/* ---- code ---------------------------------------------------------------------- */

void mem_flush_decoded(mem_t *m)
{
    for (size_t k = 0; k < m->ncode; k++) drop_decoded(m, m->code[k].pg);
}

static guest_page_t *exec_page(mem_t *m, uint64_t pc)
{
    guest_page_t *pg = mem_page(m, pc);
    if (!pg) mem_raise(m, pc, MEM_ACCESS_FETCH, false);
    if (!(pg->prot & MEM_PROT_EXEC)) mem_raise(m, pc, MEM_ACCESS_FETCH, true);
    return pg;
}

insn_t *mem_decoded_page(mem_t *m, uint64_t pc)
{
    guest_page_t *pg = exec_page(m, pc);
    uint64_t vpn = pc >> GUEST_PAGE_SHIFT;
    if (!pg->decoded) code_attach(m, pg, vpn);
    pg->referenced = true;
    m->itlb[vpn & (MEM_ITLB_SIZE - 1)] = (mem_itlb_entry_t){ vpn, pg->decoded };
    return pg->decoded;
}

void mem_note_code(mem_t *m, uint64_t pc, insn_t *slot)
{
    guest_page_t *pg = mem_page(m, pc);
    if (!pg) return;
    if (pg->evicted_ran && bit_get(pg->evicted_ran, (pc & GUEST_PAGE_MASK) >> 1))
        slot->flags |= IF_REDECODED;
    if (pg->code_live) return;
    pg->code_live = true;
    uint64_t vpn = pc >> GUEST_PAGE_SHIFT;       /* no direct writes any more */
    mem_tlb_entry_t *e = &m->wtlb[vpn & (MEM_TLB_SIZE - 1)];
    if (e->page == vpn << GUEST_PAGE_SHIFT) e->page = ~0ull;
}

void mem_fetch(mem_t *m, uint64_t addr, uint8_t *buf, unsigned len)
{
    uint64_t off = addr & GUEST_PAGE_MASK;
    if (off + len <= GUEST_PAGE_SIZE) {     /* one page: one lookup, as its first byte's */
        memcpy(buf, access_data(m, exec_page(m, addr), addr, MEM_ACCESS_FETCH) + off, len);
        return;
    }
    for (unsigned k = 0; k < len; k++) {    /* across pages: each byte faults on its own */
        guest_page_t *pg = exec_page(m, addr + k);
        buf[k] = access_data(m, pg, addr + k, MEM_ACCESS_FETCH)[(addr + k) & GUEST_PAGE_MASK];
    }
}

void mem_for_each_decoded(const mem_t *m, void (*fn)(void *ctx, insn_t *slots, size_t n),
                          void *ctx)
{
    for (size_t k = 0; k < m->ncode; k++)
        if (m->code[k].pg->code_live) fn(ctx, m->code[k].pg->decoded, MEM_SLOTS);
}

/* ---- unique words ------------------------------------------------------------- */

void mem_mark_touched_slow(mem_t *m, uint64_t addr, unsigned size)
{
    uint64_t first = addr >> 3, last = (addr + size - 1) >> 3;
    for (uint64_t w = first; w <= last; w++) {
        guest_page_t *pg = mem_page(m, w << 3);
        if (!pg) continue;
        if (!pg->touched &&
            !(pg->touched = host_calloc(BITMAP_BYTES(WORD_BITS), "a page's unique-word bitmap"))) {
            host_refused(m, w << 3, MEM_ACCESS_READ);
            continue;
        }
        bit_set(pg->touched, (size_t)(w & (WORD_BITS - 1)));
        m->touch_vpn = w >> (GUEST_PAGE_SHIFT - 3);
        m->touch_bits = pg->touched;
    }
}

/* The page's bitmap goes: mem_mark_touched must not use it. */
static void forget_touched(mem_t *m, guest_page_t *pg)
{
    if (pg->touched && pg->touched == m->touch_bits) {
        m->touch_vpn = ~0ull;
        m->touch_bits = NULL;
    }
}

uint64_t mem_count_touched(const mem_t *m)
{
    uint64_t n = m->touched_dropped;
    for (unsigned d = next_mid(m, 0); d < DIR_SIZE; d = next_mid(m, d + 1)) {
        const struct mem_mid *mid = m->dir[d];
        for (unsigned l = 0; mid && l < MID_LEAVES; l++) {
            const mem_leaf_t *leaf = mid->leaf[l];
            for (unsigned p = 0; leaf && p < LEAF_PAGES; p++)
                n += page_touched_count(&leaf->page[p]);
        }
    }
    return n;
}
