/*
 * strings.c - differential test: the C string library.  strlen/strcmp/
 * strncmp/strchr/strrchr/strstr, memcpy, overlapping memmove, memset,
 * memcmp, strtok/strtok_r, sprintf/snprintf, sscanf, strtol/strtoul/
 * strtoll with bases and errors, strtod/strtof, and atoi.  glibc's
 * vectorised string routines depend on exact load/branch behaviour near
 * page ends, so several lengths and alignments are tried.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

static unsigned sum(const unsigned char *p, size_t n) { unsigned s = 0; while (n--) s = s * 33 + *p++; return s; }

int main(void)
{
    static char big[8192];
    for (size_t i = 0; i < sizeof big; i++) big[i] = (char)('a' + (i * 7) % 26);
    for (size_t len = 0; len < 300; len += 17)
        for (size_t off = 0; off < 8; off += 3) {
            char save = big[off + len]; big[off + len] = 0;
            printf("strlen(off=%zu,len=%zu)=%zu chr(q)=%td rchr(q)=%td\n", off, len, strlen(big + off),
                   strchr(big + off, 'q') ? strchr(big + off, 'q') - big : -1,
                   strrchr(big + off, 'q') ? strrchr(big + off, 'q') - big : -1);
            big[off + len] = save;
        }
    const char *words[] = { "apple", "apricot", "app", "", "banana", "Apple", "apple\xff", "appla" };
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            int c = strcmp(words[i], words[j]), n = strncmp(words[i], words[j], 3), ci = strcasecmp(words[i], words[j]);
            printf("%d", (c > 0) - (c < 0) + 1);
            printf("%d", (n > 0) - (n < 0) + 1);
            printf("%d ", (ci > 0) - (ci < 0) + 1);
            if (j == 7) putchar('\n');
        }
    printf("strstr=%s\n", strstr("the quick brown fox jumps", "fox"));
    printf("strspn=%zu strcspn=%zu strpbrk=%s\n", strspn("aabbcxyz", "abc"), strcspn("hello, world", ",! "), strpbrk("key=value", "=:"));

    char buf[256];
    for (int i = 0; i < 64; i++) buf[i] = (char)i;
    memmove(buf + 5, buf, 40);
    printf("memmove fwd sum=%u b5=%d b44=%d\n", sum((unsigned char *)buf, 64), buf[5], buf[44]);
    for (int i = 0; i < 64; i++) buf[i] = (char)i;
    memmove(buf, buf + 7, 50);
    printf("memmove back sum=%u b0=%d b49=%d\n", sum((unsigned char *)buf, 64), buf[0], buf[49]);
    for (size_t n = 0; n < 1000; n += 111) {
        static char dst[2048];
        memset(dst, 0x5a, sizeof dst);
        memcpy(dst + (n % 7), big + (n % 5), n);
        printf("memcpy n=%zu sum=%u cmp=%d\n", n, sum((unsigned char *)dst, sizeof dst),
               memcmp(dst + (n % 7), big + (n % 5), n));
    }
    memset(buf, 'x', 100); buf[100] = 0;
    printf("memset len=%zu memchr=%td\n", strlen(buf), (char *)memchr(buf, 'x', 100) - buf);

    char line[] = "  alpha, beta;gamma ,,delta;  epsilon ";
    for (char *t = strtok(line, " ,;"); t; t = strtok(NULL, " ,;")) printf("tok[%s]\n", t);
    char line2[] = "a=1&b=22&ccc=333";
    char *sp1, *sp2;
    for (char *kv = strtok_r(line2, "&", &sp1); kv; kv = strtok_r(NULL, "&", &sp1)) {
        char *k = strtok_r(kv, "=", &sp2), *v = strtok_r(NULL, "=", &sp2);
        printf("kv %s -> %s\n", k, v);
    }

    int n = snprintf(buf, sizeof buf, "%5d|%-5d|%05d|%+d|%x|%#o|%#X|%c|%10.3s|%-8s|%%|%lld|%hhd|%hu",
                     42, 42, 42, 42, 255, 8, 0xbeef, 'Z', "abcdef", "left", -1234567890123ll, 300, 70000);
    printf("snprintf n=%d [%s]\n", n, buf);
    volatile size_t ten = 10; /* volatile: truncation is the point, no warning */
    n = snprintf(buf, ten, "%s", "this is longer than ten");
    printf("truncated n=%d [%s]\n", n, buf);
    printf("floats [%8.3f] [%-10.2e] [%g] [%g] [%G] [%.0f] [%.0f] [%#.0f] [%010.4f]\n",
           3.14159, -12345.678, 1e-5, 123456789.0, 1e-10, 2.5, 3.5, 2.0, -3.25);

    int a, b; char w[32]; float f; double d; unsigned x; char ch;
    int k = sscanf("  17 -42 word 2.5 1e-3 ff Q", "%d %d %31s %f %lf %x %c", &a, &b, w, &f, &d, &x, &ch);
    printf("sscanf k=%d a=%d b=%d w=%s f=%g d=%g x=%u ch=%c\n", k, a, b, w, (double)f, d, x, ch);
    k = sscanf("12:34:56", "%d:%d:%d", &a, &b, (int *)&x);
    printf("sscanf time k=%d %d %d %u\n", k, a, b, x);
    k = sscanf("abc", "%d", &a);
    printf("sscanf fail k=%d\n", k);
    k = sscanf("[hello world]", "[%31[^]]]", w);
    printf("sscanf set k=%d [%s]\n", k, w);

    const char *nums[] = { "0", "123", "-123", "0x1f", "0777", "  +42xyz", "9223372036854775807",
                           "9223372036854775808", "-9223372036854775809", "z", "1010", "ZZ" };
    int bases[] = { 0, 10, 16, 2, 36 };
    for (int i = 0; i < 12; i++)
        for (int bi = 0; bi < 5; bi++) {
            char *end; errno = 0;
            long v = strtol(nums[i], &end, bases[bi]);
            int e1 = errno; errno = 0;
            unsigned long uv = strtoul(nums[i], NULL, bases[bi]);
            printf("strtol(\"%s\",%d)=%ld end=%td errno=%s ul=%lu%s\n", nums[i], bases[bi], v, end - nums[i],
                   e1 == ERANGE ? "ERANGE" : e1 ? "other" : "0", uv, errno == ERANGE ? " ERANGE" : "");
        }
    const char *dn[] = { "3.14159", "-2.5e-3", "1e400", "1e-400", "0x1.8p3", "inf", "-nan", "  .5x", "4.9e-324",
                         "2.2250738585072011e-308", "123456789012345678901234567890", "0.1", "junk" };
    for (int i = 0; i < 13; i++) {
        char *end; errno = 0;
        double v = strtod(dn[i], &end);
        int e = errno;
        float fv = strtof(dn[i], NULL);
        printf("strtod(\"%s\")=%.17g %a end=%td%s strtof=%.9g\n", dn[i], v, v, end - dn[i],
               e == ERANGE ? " ERANGE" : "", (double)fv);
    }
    printf("atoi=%d atol=%ld atof=%g\n", atoi(" -77abc"), atol("123456789012"), atof("6.02e23"));
    char up[] = "Mixed Case 123 !?"; for (char *p = up; *p; p++) *p = (char)(islower((unsigned char)*p) ? toupper((unsigned char)*p) : tolower((unsigned char)*p));
    printf("swapcase=%s\n", up);
    char *dup = strdup("duplicate me"); printf("strdup=%s len=%zu\n", dup, strlen(dup)); free(dup);
    strcpy(buf, "abc"); strcat(buf, "def"); strncat(buf, "ghijkl", (size_t)ten - 7);
    printf("strcat=%s\n", buf);
    return 0;
}
