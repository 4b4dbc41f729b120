/*
 * test_mem.c - unit tests of guest memory: mapping, lazy allocation,
 * permissions and faults, the software TLB, free-range search, the
 * unique-word tracker and invalidation of decoded code on stores.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

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
    mem_note_code(m, 0x60000);
    mem_store32(m, 0x60800, 0);                             /* store to the code page */
    assert_null(slots[0].exec);
    assert_int_equal(m->decoded_pages_dropped, 1);
    mem_free(m);
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
