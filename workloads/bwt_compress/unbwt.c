/*
 * unbwt.c - inverse Burrows-Wheeler transform by the LF-mapping: a counting
 * pass builds the transformation vector, then a pointer chase over it
 * rebuilds the original block.
 */
#include <string.h>
#include "bwt.h"

static void cumulative_counts(const uint8_t *last, uint32_t n, uint32_t *cc)
{
    uint32_t cnt[256];
    memset(cnt, 0, sizeof(cnt));
    for (uint32_t i = 0; i < n; i++)
        cnt[last[i]]++;
    uint32_t sum = 0;
    for (int c = 0; c < 256; c++) {
        cc[c] = sum;
        sum += cnt[c];
    }
}

void bwt_inverse(const uint8_t *last, uint32_t n, uint32_t origin,
                 uint8_t *out, uint32_t *tvec)
{
    uint32_t cc[256];
    cumulative_counts(last, n, cc);
    for (uint32_t i = 0; i < n; i++)
        tvec[cc[last[i]]++] = i;
    uint32_t p = tvec[origin];
    for (uint32_t k = 0; k < n; k++) {
        out[k] = last[p];
        p = tvec[p];
    }
}
