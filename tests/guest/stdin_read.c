/*
 * stdin_read.c - differential test: reading stdin (stdin_read.stdin).
 * A header read with scanf, then fgets line by line with tokenising and
 * number parsing, then getchar to the end, counting bytes and words.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

int main(void)
{
    int n; char title[64];
    if (scanf("%d %63s", &n, title) != 2) { printf("bad header\n"); return 1; }
    printf("header n=%d title=%s\n", n, title);
    int c = getchar(); /* rest of header line */
    while (c != '\n' && c != EOF) c = getchar();
    char line[256];
    long total = 0; double ftotal = 0;
    for (int i = 0; i < n && fgets(line, sizeof line, stdin); i++) {
        line[strcspn(line, "\n")] = 0;
        char name[64]; long v; double f;
        if (sscanf(line, "%63s %ld %lf", name, &v, &f) == 3) {
            total += v; ftotal += f;
            printf("rec %d: name=%s v=%ld f=%.6f len=%zu\n", i, name, v, f, strlen(line));
        } else {
            printf("rec %d: unparsed [%s]\n", i, line);
        }
    }
    printf("total=%ld ftotal=%.6f\n", total, ftotal);
    long bytes = 0, words = 0, lines = 0; int inword = 0;
    while ((c = getchar()) != EOF) {
        bytes++;
        if (c == '\n') lines++;
        if (isspace(c)) inword = 0; else if (!inword) { inword = 1; words++; }
    }
    printf("tail bytes=%ld words=%ld lines=%ld eof=%d\n", bytes, words, lines, feof(stdin) != 0);
    return 0;
}
