/*
 * stdio_mix.c - differential test: stdio output paths.  printf formats,
 * puts, putchar, fputs/fprintf to stderr interleaved with stdout (stdout
 * is a pipe under the test runner, so it is fully buffered while stderr is
 * unbuffered; both runs see the same), explicit fflush, setvbuf line
 * buffering, fwrite of binary data, and raw write(2) calls.
 */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <inttypes.h>
#include <stddef.h>

int main(void)
{
    printf("line 1 to stdout\n");
    fputs("err A\n", stderr);
    puts("puts line");
    fprintf(stderr, "err B %d %s\n", 42, "x");
    for (int c = 'a'; c <= 'z'; c++) putchar(c);
    putchar('\n');
    fflush(stdout);
    fputs("err C after flush\n", stderr);
    write(1, "raw write to fd 1\n", 18);
    write(2, "raw write to fd 2\n", 18);
    printf("%d %i %u %o %x %X %e %E %f %g %G %c %s %%\n", -5, 6, 7u, 8u, 255u, 255u, 1.5, 1.5, 1.5, 1.5, 1e-20, 'q', "str");
    printf("[%*d] [%-*d] [%.*f] [%+.3e] [% d] [%#x] [%#o] [%.0e]\n", 8, 12, 8, 12, 3, 2.0 / 3, 12345.6789, 7, 0u, 0u, 15.0);
    printf("%" PRId64 " %" PRIu64 " %" PRIx64 " %jd %zu %td\n", INT64_MIN, UINT64_MAX, UINT64_MAX, (intmax_t)-1, (size_t)123, (ptrdiff_t)-9);
    printf("%a %a %a %a %La\n", 1.0, -0.1, 0x1p-1074, 1e300, 1.0L / 3);
    printf("%.17g %.17g %.17g %.3g %.10g\n", 0.1, 1.0 / 3, 2.0 / 3, 1234567.0, 1e22);
    printf("%s|%10s|%-10s|%.2s|\n", "", "right", "left", "truncate");
    printf("%hhx %hx %lx %llx\n", (unsigned char)0x1ff, (unsigned short)0x1ffff, 0xfffffffffUL, 0xffffffffffffffffULL);
    printf("%5.1f%%\n", 99.44);
    char wide[2000]; memset(wide, '=', sizeof wide - 1); wide[sizeof wide - 1] = 0;
    printf("%s\n", wide);
    for (int i = 0; i < 500; i++) printf("%d%c", i * i, i % 20 == 19 ? '\n' : ' ');
    putchar('\n');
    fprintf(stderr, "err D before end, stdout has buffered output\n");
    unsigned char bin[256]; for (int i = 0; i < 256; i++) bin[i] = (unsigned char)i;
    size_t n = fwrite(bin, 1, sizeof bin, stdout);
    printf("\nfwrite wrote %zu\n", n);
    setvbuf(stderr, NULL, _IOFBF, 1024);
    fprintf(stderr, "err E fully buffered stderr\n");
    fprintf(stderr, "err F fully buffered stderr\n");
    fflush(stderr);
    printf("final stdout line without newline");
    return 0;
}
