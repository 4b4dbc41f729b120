/*
 * misaligned.c - differential test: misaligned scalar loads and stores.
 * RISC-V Linux lets user code make misaligned accesses (hardware or the
 * kernel handle them) and qemu-riscv64 allows them, so the simulator must
 * too: lh/lhu/lw/lwu/ld/sh/sw/sd and fld/flw/fsd/fsw at every offset,
 * including ones that straddle a page boundary.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

static unsigned char buf[3 * 4096] __attribute__((aligned(4096)));

int main(void)
{
    for (int i = 0; i < (int)sizeof buf; i++) buf[i] = (unsigned char)(i * 7 + 3);
    unsigned char *bases[] = { buf, buf + 4096 - 8 };
    for (int bi = 0; bi < 2; bi++)
        for (int off = 0; off < 8; off++) {
            unsigned char *p = bases[bi] + off;
            int64_t lh, lw, ld; uint64_t lhu, lwu;
            __asm__ volatile("lh %0,0(%1)" : "=r"(lh) : "r"(p));
            __asm__ volatile("lhu %0,0(%1)" : "=r"(lhu) : "r"(p));
            __asm__ volatile("lw %0,0(%1)" : "=r"(lw) : "r"(p));
            __asm__ volatile("lwu %0,0(%1)" : "=r"(lwu) : "r"(p));
            __asm__ volatile("ld %0,0(%1)" : "=r"(ld) : "r"(p));
            printf("base%d+%d lh=%" PRId64 " lhu=%" PRIu64 " lw=%" PRId64 " lwu=%" PRIu64 " ld=%016" PRIx64 "\n",
                   bi, off, lh, lhu, lw, lwu, (uint64_t)ld);
            double d; float f;
            __asm__ volatile("fld %0,0(%1)" : "=f"(d) : "r"(p));
            __asm__ volatile("flw %0,0(%1)" : "=f"(f) : "r"(p));
            printf("  fld=%a flw=%a\n", d, (double)f);
        }
    for (int off = 0; off < 8; off++) {
        unsigned char *p = buf + 4096 - 4 + off;
        __asm__ volatile("sd %0,0(%1)" :: "r"(0x1122334455667788ull + off), "r"(p) : "memory");
        __asm__ volatile("sw %0,0(%1)" :: "r"(0xa1b2c3d4ull), "r"(p + 9) : "memory");
        __asm__ volatile("sh %0,0(%1)" :: "r"(0xbeefull), "r"(p + 15) : "memory");
        double dv = 1.0 / (off + 3); float fv = (float)dv;
        __asm__ volatile("fsd %0,0(%1)" :: "f"(dv), "r"(p + 19) : "memory");
        __asm__ volatile("fsw %0,0(%1)" :: "f"(fv), "r"(p + 29) : "memory");
        uint64_t h = 0;
        for (int i = 4000; i < 4200; i++) h = h * 131 + buf[i];
        printf("store off=%d hash=%016" PRIx64 "\n", off, h);
    }
    /* memcpy-based unaligned accesses as the compiler emits them */
    uint64_t sum = 0;
    for (int i = 0; i < 1000; i++) { uint64_t v; memcpy(&v, buf + i * 3 + 1, 8); sum += v; }
    printf("memcpy sum=%016" PRIx64 "\n", sum);
    return 0;
}
