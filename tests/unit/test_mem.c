/*
 * test_mem.c - unit tests of guest memory: mapping, lazy allocation,
 * permissions and faults, the software TLB, free-range search, the
 * unique-word tracker and invalidation of decoded code on stores; the
 * bounds: the guest limit, moving pages (mremap), decoded arrays recycled
 * and evicted (with exact counts), and the host-memory limit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "hostmem.h"
#include "mem.h"

static void test_map_read_write(void **state)
{
    (void)state;
    mem_t *m = mem_new();
    assert_true(mem_map(m, 0x10000, 0x3000, MEM_PROT_READ | MEM_PROT_WRITE));
    assert_int_equal(m->pages_mapped, 3);
    assert_int_equal(m->pages_touched, 0);                 /* lazy */
    uint8_t buf[16] = {0};
    assert_true(mem_read(m, 0x10ff8, buf, 16));            /* untouched reads as zero */
    assert_int_equal(buf[0], 0);
    const char msg[] = "hello, guest";
    assert_true(mem_write(m, 0x10ffa, msg, sizeof msg));   /* spans two pages */
    char out[sizeof msg];
    assert_true(mem_read(m, 0x10ffa, out, sizeof out));
    assert_string_equal(out, msg);
    assert_false(mem_read(m, 0x12ff8, buf, 16));           /* runs off the end */
    assert_false(mem_write(m, 0x9000, buf, 1));
    char s[32];
    assert_true(mem_read_str(m, 0x10ffa, s, sizeof s));
    assert_string_equal(s, msg);
    mem_free(m);
}

static void test_inline_accessors(void **state)
{
    (void)state;
    mem_t *m = mem_new();
    jmp_buf jb;
    m->fault_jmp = &jb;
    assert_true(mem_map(m, 0x20000, 0x2000, MEM_PROT_READ | MEM_PROT_WRITE));
    if (setjmp(jb)) fail_msg("unexpected fault at 0x%llx", (unsigned long long)m->fault.addr);
    mem_store64(m, 0x20008, 0x1122334455667788ull);
    assert_int_equal(mem_load64(m, 0x20008), 0x1122334455667788ull);
    assert_int_equal(mem_load8(m, 0x20008), 0x88);
    assert_int_equal(mem_load16(m, 0x2000e), 0x1122);
    mem_store32(m, 0x20ffe, 0xaabbccdd);                    /* crosses the page */
    assert_int_equal(mem_load32(m, 0x20ffe), 0xaabbccdd);
    assert_int_equal(mem_load8(m, 0x21001), 0xaa);
    mem_free(m);
}

static void expect_fault(mem_t *m, uint64_t addr, int access, bool write, bool mapped)
{
    jmp_buf jb;
    m->fault_jmp = &jb;
    if (setjmp(jb) == 0) {
        if (write) mem_store64(m, addr, 1);
        else (void)mem_load64(m, addr);
        fail_msg("no fault at 0x%llx", (unsigned long long)addr);
    }
    assert_int_equal(m->fault.addr, addr);
    assert_int_equal(m->fault.access, access);
    assert_int_equal(m->fault.mapped, mapped);
}

static void test_faults_and_protection(void **state)
{
    (void)state;
    mem_t *m = mem_new();
    assert_true(mem_map(m, 0x30000, 0x1000, MEM_PROT_READ));
    expect_fault(m, 0x40000, MEM_ACCESS_READ, false, false);
    expect_fault(m, 0x30000, MEM_ACCESS_WRITE, true, true);
    expect_fault(m, 1ull << 60, MEM_ACCESS_READ, false, false);
    assert_true(mem_protect(m, 0x30000, 0x1000, MEM_PROT_READ | MEM_PROT_WRITE));
    jmp_buf jb;
    m->fault_jmp = &jb;
    if (setjmp(jb)) fail_msg("fault after mprotect");
    mem_store64(m, 0x30000, 42);
    assert_int_equal(mem_load64(m, 0x30000), 42);
    mem_unmap(m, 0x30000, 0x1000);                          /* TLB must forget it */
    expect_fault(m, 0x30000, MEM_ACCESS_READ, false, false);
    assert_false(mem_protect(m, 0x30000, 0x1000, MEM_PROT_READ));
    mem_free(m);
}

static void test_find_free(void **state)
{
    (void)state;
    mem_t *m = mem_new();
    uint64_t top = 0x100000, bottom = 0x10000;
    uint64_t a = mem_find_free(m, 0x3000, bottom, top);
    assert_int_equal(a, top - 0x3000);
    assert_true(mem_map(m, a, 0x3000, MEM_PROT_READ));
    uint64_t b = mem_find_free(m, 0x2000, bottom, top);
    assert_int_equal(b, a - 0x2000);
    mem_map(m, b, 0x2000, MEM_PROT_READ);
    mem_unmap(m, a + 0x1000, 0x1000);                      /* one-page hole */
    assert_int_equal(mem_find_free(m, 0x1000, bottom, top), a + 0x1000);
    assert_int_equal(mem_find_free(m, 0x2000, bottom, top), b - 0x2000);
    assert_int_equal(mem_find_free(m, 0x200000, bottom, top), 0);
    mem_free(m);
}

static void test_unique_words(void **state)
{
    (void)state;
    mem_t *m = mem_new();
    mem_map(m, 0x50000, 0x2000, MEM_PROT_READ | MEM_PROT_WRITE);
    mem_mark_touched(m, 0x50000, 8);
    mem_mark_touched(m, 0x50004, 4);                       /* same word */
    mem_mark_touched(m, 0x50ffc, 8);                       /* two words, two pages */
    assert_int_equal(mem_count_touched(m), 3);
    mem_unmap(m, 0x51000, 0x1000);                         /* counted words survive */
    assert_int_equal(mem_count_touched(m), 3);
    mem_free(m);
}

static void test_store_to_code_drops_decoded(void **state)
{
    (void)state;
    mem_t *m = mem_new();
    jmp_buf jb;
    m->fault_jmp = &jb;
    if (setjmp(jb)) fail_msg("unexpected fault");
    mem_map(m, 0x60000, 0x1000, MEM_PROT_READ | MEM_PROT_WRITE | MEM_PROT_EXEC);
    mem_store32(m, 0x60000, 0x13);                          /* write TLB entry now live */
    insn_t *slots = mem_decoded_page(m, 0x60000);
    slots[0].exec = (exec_fn)1;                             /* pretend decoded */
    mem_note_code(m, 0x60000, &slots[0]);
    mem_store32(m, 0x60800, 0);                             /* store to the code page */
    /* the dropped array's host memory went back to the host (checked before
     * reading it, which maps the zero page); the array stays the page's */
    unsigned char resident[64];
    size_t host_pages = mem_decoded_array_bytes() / (size_t)sysconf(_SC_PAGESIZE);
    assert_true(host_pages <= sizeof resident);
    assert_int_equal(mincore(slots, mem_decoded_array_bytes(), resident), 0);
    for (size_t k = 0; k < host_pages; k++) assert_int_equal(resident[k] & 1, 0);
    assert_null(slots[0].exec);
    assert_int_equal(m->decoded_pages_dropped, 1);
    assert_ptr_equal(mem_decoded_page(m, 0x60000), slots);
    mem_free(m);
}

static void test_guest_limit(void **state)
{
    (void)state;
    mem_t *m = mem_new();
    mem_set_guest_limit(m, 16 * GUEST_PAGE_SIZE);
    assert_true(mem_map(m, 0x10000, 10 * GUEST_PAGE_SIZE, MEM_PROT_READ));
    assert_false(mem_map(m, 0x40000, 8 * GUEST_PAGE_SIZE, MEM_PROT_READ));   /* 18 > 16 */
    assert_int_equal(m->pages_mapped, 10);                                   /* nothing */
    assert_false(mem_is_mapped(m, 0x40000));
    /* mapping over mapped pages costs only the new ones */
    assert_int_equal(mem_unmapped_bytes(m, 0x18000, 0x8000), 6 * GUEST_PAGE_SIZE);
    assert_true(mem_map(m, 0x18000, 0x8000, MEM_PROT_READ));                 /* 16 */
    assert_false(mem_fits(m, 1));
    mem_set_rlimit_as(m, 8 * GUEST_PAGE_SIZE);                             /* the guest's own */
    mem_unmap(m, 0x10000, 0x10000);
    assert_false(mem_map(m, 0x10000, 9 * GUEST_PAGE_SIZE, MEM_PROT_READ));
    assert_true(mem_map(m, 0x10000, 8 * GUEST_PAGE_SIZE, MEM_PROT_READ));
    mem_set_rlimit_as(m, ~0ull);                                           /* never past the cap */
    assert_int_equal(m->guest_limit, 16 * GUEST_PAGE_SIZE);
    mem_unmap(m, 0, 1ull << 47);                                           /* huge, quick */
    assert_int_equal(m->pages_mapped, 0);
    mem_free(m);
}

static void test_move(void **state)
{
    (void)state;
    mem_t *m = mem_new();
    assert_true(mem_map(m, 0x100000, 3 * GUEST_PAGE_SIZE, MEM_PROT_READ | MEM_PROT_WRITE));
    const char msg[] = "moved";
    assert_true(mem_write(m, 0x102000, msg, sizeof msg));
    assert_true(mem_move(m, 0x100000, 3 * GUEST_PAGE_SIZE, 0x800000, 4 * GUEST_PAGE_SIZE,
                         MEM_PROT_READ, false));
    assert_false(mem_is_mapped(m, 0x100000));
    assert_int_equal(m->pages_mapped, 4);
    char out[sizeof msg];
    assert_true(mem_read(m, 0x802000, out, sizeof out));
    assert_string_equal(out, msg);
    assert_int_equal(mem_page(m, 0x802000)->prot, MEM_PROT_READ | MEM_PROT_WRITE);
    assert_int_equal(mem_page(m, 0x803000)->prot, MEM_PROT_READ);           /* grown */
    /* keep_source (MREMAP_DONTUNMAP): the source stays, empty */
    assert_true(mem_move(m, 0x800000, 4 * GUEST_PAGE_SIZE, 0x900000, 4 * GUEST_PAGE_SIZE,
                         MEM_PROT_READ, true));
    assert_int_equal(m->pages_mapped, 8);
    assert_true(mem_read(m, 0x902000, out, sizeof out));
    assert_string_equal(out, msg);
    assert_true(mem_read(m, 0x802000, out, sizeof out));
    assert_int_equal(out[0], 0);
    mem_free(m);
}

static unsigned long hook_calls, hook_counted;
static void count_hook(void *ctx, insn_t *slots, size_t n)
{
    (void)ctx;
    hook_calls++;
    for (size_t k = 0; k < n; k++)
        if (slots[k].exec && slots[k].count && !(slots[k].flags & IF_REDECODED)) hook_counted++;
}

/* Pretend the slot of pc was decoded and ran once. */
static insn_t *decode_fake(mem_t *m, uint64_t pc)
{
    insn_t *slots = mem_decoded_page(m, pc);
    insn_t *in = &slots[(pc & GUEST_PAGE_MASK) >> 1];
    *in = (insn_t){ .exec = (exec_fn)1, .pc = pc, .len = 4, .count = 1 };
    mem_note_code(m, pc, in);
    return slots;
}

static void test_decoded_recycled(void **state)
{
    (void)state;
    mem_t *m = mem_new();
    jmp_buf jb;
    m->fault_jmp = &jb;
    if (setjmp(jb)) fail_msg("unexpected fault");
    insn_t *first = NULL;
    uint64_t used = 0;
    for (int k = 0; k < 1000; k++) {                      /* a JIT: map, run, unmap */
        uint64_t at = 0x200000 + (uint64_t)(k % 7) * GUEST_PAGE_SIZE;
        assert_true(mem_map(m, at, GUEST_PAGE_SIZE, MEM_PROT_READ | MEM_PROT_EXEC));
        insn_t *slots = decode_fake(m, at + 8);
        if (!first) { first = slots; used = hostmem_used(); }
        assert_ptr_equal(slots, first);                   /* the same array again */
        assert_int_equal(hostmem_used(), used);
        mem_unmap(m, at, GUEST_PAGE_SIZE);
        assert_null(first[4].exec);                       /* given back, reads as zeros */
    }
    assert_int_equal(m->ncode + m->nspare, 1);
    /* taking execute permission away gives the array back too */
    assert_true(mem_map(m, 0x300000, GUEST_PAGE_SIZE, MEM_PROT_READ | MEM_PROT_EXEC));
    decode_fake(m, 0x300000);
    assert_int_equal(m->ncode, 1);
    assert_true(mem_protect(m, 0x300000, GUEST_PAGE_SIZE, MEM_PROT_READ));
    assert_int_equal(m->ncode, 0);
    mem_free(m);
}

static void test_decoded_cache_evicts(void **state)
{
    (void)state;
    mem_t *m = mem_new();
    jmp_buf jb;
    m->fault_jmp = &jb;
    if (setjmp(jb)) fail_msg("unexpected fault");
    hook_calls = hook_counted = 0;
    m->on_decoded_drop = count_hook;
    mem_set_decoded_limit(m, 2 * mem_decoded_array_bytes());
    assert_true(mem_map(m, 0x400000, 5 * GUEST_PAGE_SIZE, MEM_PROT_READ | MEM_PROT_EXEC));
    for (uint64_t p = 0; p < 5; p++) decode_fake(m, 0x400000 + p * GUEST_PAGE_SIZE);
    assert_int_equal(m->ncode, 2);
    assert_int_equal(m->decoded_evictions, 3);
    assert_int_equal(hook_counted, 3);                    /* the evicted pages' counts */
    /* an evicted instruction decoded again is not a new static instruction */
    insn_t *slots = decode_fake(m, 0x400000);
    assert_true(slots[0].flags & IF_REDECODED);
    mem_for_each_decoded(m, count_hook, NULL);
    assert_int_equal(hook_counted, 5);                    /* each instruction once */
    m->on_decoded_drop = NULL;
    mem_free(m);
}

static void test_host_limit(void **state)
{
    (void)state;
    mem_t *m = mem_new();
    uint64_t base = hostmem_used();
    hostmem_set_limit(base + (1u << 20));                 /* 1 MiB more than now */
    assert_true(mem_map(m, 0x1000000, 1u << 22, MEM_PROT_READ | MEM_PROT_WRITE));
    jmp_buf jb;
    m->fault_jmp = &jb;
    uint64_t a = 0x1000000;
    if (setjmp(jb) == 0) {
        for (; a < 0x1000000 + (1u << 22); a += GUEST_PAGE_SIZE) mem_store8(m, a, 1);
        fail_msg("no stop at the host limit");
    }
    assert_true(m->fault.host_oom);
    assert_int_equal(m->fault.addr, a);
    assert_non_null(hostmem_failure());
    assert_string_equal(hostmem_failure()->what, "a guest data page");
    assert_true(hostmem_used() <= base + (1u << 20));
    m->fault_jmp = NULL;
    assert_false(mem_write(m, a, "x", 1));                /* no run: refused, not fatal */
    hostmem_set_limit(0);
    assert_null(hostmem_failure());
    mem_free(m);
    assert_int_equal(hostmem_used(), base);               /* everything given back */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_read_write),
        cmocka_unit_test(test_inline_accessors),
        cmocka_unit_test(test_faults_and_protection),
        cmocka_unit_test(test_find_free),
        cmocka_unit_test(test_unique_words),
        cmocka_unit_test(test_store_to_code_drops_decoded),
        cmocka_unit_test(test_guest_limit),
        cmocka_unit_test(test_move),
        cmocka_unit_test(test_decoded_recycled),
        cmocka_unit_test(test_decoded_cache_evicts),
        cmocka_unit_test(test_host_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
