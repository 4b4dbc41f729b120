/*
 * code_pages.c PAGES [REPEAT] - straight-line code filling PAGES pages
 * (every 4-byte word an add, the last one a return), run REPEAT times
 * (default 1): each page decodes 1,024 instructions, the densest code
 * there is, so hps-sim's host memory per executed code page shows.
 * Prints the number of instructions the code ran.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
    long pages = argc > 1 ? atol(argv[1]) : 100;
    long repeat = argc > 2 ? atol(argv[2]) : 1;
    size_t len = (size_t)pages * 4096, words = len / 4;
    uint32_t *code = mmap(NULL, len, PROT_READ | PROT_WRITE | PROT_EXEC,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (code == MAP_FAILED) { perror("mmap"); return 1; }
#if defined(__riscv)
    for (size_t k = 0; k < words - 1; k++) code[k] = 0x00150513u;   /* addi a0, a0, 1 */
    code[words - 1] = 0x00008067u;                                  /* ret */
    __builtin___clear_cache((char *)code, (char *)code + len);
#elif defined(__alpha__)
    code[0] = 0x42001400u;                                          /* addq a0, 0, v0 */
    for (size_t k = 1; k < words - 1; k++) code[k] = 0x40003400u;   /* addq v0, 1, v0 */
    code[words - 1] = 0x6bfa8001u;                                  /* ret */
    __asm__ volatile("call_pal 0x86" ::: "memory");                 /* imb */
#endif
    long (*fn)(long) = (long (*)(long))(void *)code;
    long n = 0;
    for (long r = 0; r < repeat; r++) n = fn(n);
    printf("code_pages: %ld pages, %ld instructions\n", pages, n);
    return 0;
}
