/*
 * mem.c - sparse paged guest memory with a software TLB.
 *
 * Layout: dir[addr >> 30] points to an array of 2^18 page descriptors (one
 * 1 GiB region), each describing one 4 KiB guest page.  Descriptor arrays
 * are calloc'ed per region on first mapping; a page's host bytes are
 * allocated on first touch, so large sparse mmaps cost nothing until used.
 *
 * The TLBs cache (guest page -> host address) for reads and writes
 * separately.  Pages that hold decoded instructions get no write entry, so
 * stores to code fall into mem_store_slow, which drops the decoded slots.
 */
#include "mem.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>

#define REGION_SHIFT 30
#define REGION_PAGES (1u << (REGION_SHIFT - GUEST_PAGE_SHIFT))
#define DIR_SIZE     (1u << (GUEST_ADDR_BITS - REGION_SHIFT))
#define SLOTS_PER_PAGE (GUEST_PAGE_SIZE / 2)

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
    if (m->rtlb[idx].tag == vpn) m->rtlb[idx].tag = ~0ull;
    if (m->wtlb[idx].tag == vpn) m->wtlb[idx].tag = ~0ull;
    mem_itlb_entry_t *ie = &m->itlb[vpn & (MEM_ITLB_SIZE - 1)];
    if (ie->tag == vpn) ie->tag = ~0ull;
}

mem_t *mem_new(void)
{
    mem_t *m = xcalloc(1, sizeof *m);
    tlb_invalidate_all(m);
    return m;
}

/* Invalidate a page's decoded instructions (zeroing keeps the array). */
static void drop_decoded(mem_t *m, guest_page_t *pg)
{
    if (!pg->decoded || !pg->code_live) return;
    if (m->on_decoded_drop)
        m->on_decoded_drop(m->on_decoded_drop_ctx, pg->decoded, SLOTS_PER_PAGE);
    memset(pg->decoded, 0, SLOTS_PER_PAGE * sizeof(insn_t));
    pg->code_live = false;
    m->decoded_pages_dropped++;
}

static unsigned page_touched_count(const guest_page_t *pg)
{
    unsigned n = 0;
    for (unsigned k = 0; k < GUEST_PAGE_SIZE / 8 / 64; k++)
        n += (unsigned)__builtin_popcountll(pg->touched[k]);
    return n;
}

/* Release a page's contents when it is unmapped or replaced. */
static void retire_page(mem_t *m, guest_page_t *pg)
{
    drop_decoded(m, pg);
    if (pg->decoded) {
        if (m->graveyard_len == m->graveyard_cap) {
            m->graveyard_cap = m->graveyard_cap ? 2 * m->graveyard_cap : 16;
            m->graveyard = xrealloc(m->graveyard, m->graveyard_cap * sizeof *m->graveyard);
        }
        m->graveyard[m->graveyard_len++] = pg->decoded;
        pg->decoded = NULL;
    }
    m->touched_dropped += page_touched_count(pg);
    free(pg->data);
    pg->data = NULL;
}

void mem_free(mem_t *m)
{
    if (!m) return;
    for (unsigned d = 0; d < DIR_SIZE; d++) {
        guest_page_t **region = m->dir[d];
        if (!region) continue;
        for (unsigned p = 0; p < REGION_PAGES; p++) {
            guest_page_t *pg = region[p];
            if (!pg) continue;
            free(pg->data);
            free(pg->decoded);
            free(pg);
        }
        free(region);
    }
    for (size_t k = 0; k < m->graveyard_len; k++) free(m->graveyard[k]);
    free(m->graveyard);
    free(m);
}

static bool addr_valid(uint64_t addr) { return (addr >> GUEST_ADDR_BITS) == 0; }

guest_page_t *mem_page(const mem_t *m, uint64_t addr)
{
    if (!addr_valid(addr)) return NULL;
    guest_page_t **region = m->dir[addr >> REGION_SHIFT];
    if (!region) return NULL;
    return region[(addr >> GUEST_PAGE_SHIFT) & (REGION_PAGES - 1)];
}

static guest_page_t **page_slot(mem_t *m, uint64_t addr)
{
    guest_page_t ***region = &m->dir[addr >> REGION_SHIFT];
    if (!*region) *region = xcalloc(REGION_PAGES, sizeof **region);
    return &(*region)[(addr >> GUEST_PAGE_SHIFT) & (REGION_PAGES - 1)];
}

static bool range_valid(uint64_t addr, uint64_t len)
{
    uint64_t end = addr + len;
    return end >= addr && addr_valid(addr) && (end == 0 || addr_valid(end - 1));
}

bool mem_map(mem_t *m, uint64_t addr, uint64_t len, int prot)
{
    uint64_t start = addr & ~GUEST_PAGE_MASK;
    uint64_t end = (addr + len + GUEST_PAGE_MASK) & ~GUEST_PAGE_MASK;
    if (len == 0 || !range_valid(start, end - start)) return false;
    for (uint64_t a = start; a < end; a += GUEST_PAGE_SIZE) {
        guest_page_t **slot = page_slot(m, a);
        if (*slot) {                         /* remap: fresh zero page */
            retire_page(m, *slot);
            memset(*slot, 0, sizeof **slot);
        } else {
            *slot = xcalloc(1, sizeof **slot);
            m->pages_mapped++;
        }
        (*slot)->prot = (uint8_t)prot;
        tlb_invalidate_page(m, a);
    }
    return true;
}

void mem_unmap(mem_t *m, uint64_t addr, uint64_t len)
{
    uint64_t start = addr & ~GUEST_PAGE_MASK;
    uint64_t end = (addr + len + GUEST_PAGE_MASK) & ~GUEST_PAGE_MASK;
    if (len == 0 || !range_valid(start, end - start)) return;
    for (uint64_t a = start; a < end; a += GUEST_PAGE_SIZE) {
        guest_page_t **region = m->dir[a >> REGION_SHIFT];
        if (!region) continue;
        guest_page_t **slot = &region[(a >> GUEST_PAGE_SHIFT) & (REGION_PAGES - 1)];
        if (!*slot) continue;
        retire_page(m, *slot);
        free(*slot);
        *slot = NULL;
        m->pages_mapped--;
        tlb_invalidate_page(m, a);
    }
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
        if (!(prot & MEM_PROT_EXEC)) drop_decoded(m, pg);
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

/* Host bytes of a page, allocated (zeroed) on first touch. */
static uint8_t *page_data(mem_t *m, guest_page_t *pg)
{
    if (!pg->data) {
        pg->data = xcalloc(1, GUEST_PAGE_SIZE);
        m->pages_touched++;
    }
    return pg->data;
}

_Noreturn void mem_raise(mem_t *m, uint64_t addr, int access, bool mapped)
{
    m->fault.addr = addr;
    m->fault.access = access;
    m->fault.mapped = mapped;
    if (!m->fault_jmp) {
        fprintf(stderr, "hps-sim: internal error: guest memory fault at 0x%llx "
                "outside the run loop\n", (unsigned long long)addr);
        exit(70);
    }
    longjmp(*m->fault_jmp, 1);
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
    uint8_t *data = page_data(m, pg);
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
    e->tag = vpn;
    e->addend = (uintptr_t)data - (uintptr_t)(vpn << GUEST_PAGE_SHIFT);
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
        drop_decoded(m, pg);
        memcpy(page_data(m, pg) + off, in, n);
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

void mem_flush_decoded(mem_t *m)
{
    for (unsigned d = 0; d < DIR_SIZE; d++) {
        guest_page_t **region = m->dir[d];
        if (!region) continue;
        for (unsigned p = 0; p < REGION_PAGES; p++)
            if (region[p]) drop_decoded(m, region[p]);
    }
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
    if (!pg->decoded) pg->decoded = xcalloc(SLOTS_PER_PAGE, sizeof(insn_t));
    uint64_t vpn = pc >> GUEST_PAGE_SHIFT;
    m->itlb[vpn & (MEM_ITLB_SIZE - 1)] = (mem_itlb_entry_t){ vpn, pg->decoded };
    return pg->decoded;
}

void mem_note_code(mem_t *m, uint64_t pc)
{
    guest_page_t *pg = mem_page(m, pc);
    if (!pg || pg->code_live) return;
    pg->code_live = true;
    uint64_t vpn = pc >> GUEST_PAGE_SHIFT;       /* no direct writes any more */
    mem_tlb_entry_t *e = &m->wtlb[vpn & (MEM_TLB_SIZE - 1)];
    if (e->tag == vpn) e->tag = ~0ull;
}

void mem_fetch(mem_t *m, uint64_t addr, uint8_t *buf, unsigned len)
{
    for (unsigned k = 0; k < len; k++) {
        guest_page_t *pg = exec_page(m, addr + k);
        buf[k] = page_data(m, pg)[(addr + k) & GUEST_PAGE_MASK];
    }
}

void mem_mark_touched(mem_t *m, uint64_t addr, unsigned size)
{
    uint64_t first = addr >> 3, last = (addr + size - 1) >> 3;
    for (uint64_t w = first; w <= last; w++) {
        guest_page_t *pg = mem_page(m, w << 3);
        if (!pg) continue;
        unsigned bit = (unsigned)(w & (GUEST_PAGE_SIZE / 8 - 1));
        pg->touched[bit >> 6] |= 1ull << (bit & 63);
    }
}

uint64_t mem_count_touched(const mem_t *m)
{
    uint64_t n = m->touched_dropped;
    for (unsigned d = 0; d < DIR_SIZE; d++) {
        guest_page_t **region = m->dir[d];
        if (!region) continue;
        for (unsigned p = 0; p < REGION_PAGES; p++)
            if (region[p]) n += page_touched_count(region[p]);
    }
    return n;
}

void mem_for_each_decoded(const mem_t *m, void (*fn)(void *ctx, insn_t *slots, size_t n),
                          void *ctx)
{
    for (unsigned d = 0; d < DIR_SIZE; d++) {
        guest_page_t **region = m->dir[d];
        if (!region) continue;
        for (unsigned p = 0; p < REGION_PAGES; p++)
            if (region[p] && region[p]->decoded && region[p]->code_live)
                fn(ctx, region[p]->decoded, SLOTS_PER_PAGE);
    }
}
