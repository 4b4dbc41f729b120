/*
 * mtf.c - move-to-front coding of the BWT output restricted to the symbols
 * in use, with runs of zeros written in bijective base 2 (RUNA/RUNB) and an
 * end-of-block symbol, plus the matching decoder.
 */
#include "bwt.h"

static int build_seq_map(const uint8_t *in_use, uint8_t *unseq_to_seq,
                         uint8_t *seq_to_unseq)
{
    int n = 0;
    for (int c = 0; c < 256; c++) {
        if (in_use[c]) {
            unseq_to_seq[c] = (uint8_t)n;
            seq_to_unseq[n] = (uint8_t)c;
            n++;
        }
    }
    return n;
}

static uint32_t flush_zero_run(uint32_t run, uint16_t *syms, uint32_t o,
                               uint32_t *freq)
{
    if (run == 0)
        return o;
    run--;
    for (;;) {
        uint16_t s = (run & 1) ? RUNB : RUNA;
        syms[o++] = s;
        freq[s]++;
        if (run < 2)
            break;
        run = (run - 2) / 2;
    }
    return o;
}

/* Move symbol v to the front of list; return its former position. */
static int move_to_front(uint8_t *list, uint8_t v)
{
    uint8_t prev = list[0];
    if (prev == v)
        return 0;
    int j = 1;
    for (;;) {
        uint8_t cur = list[j];
        list[j] = prev;
        if (cur == v)
            break;
        prev = cur;
        j++;
    }
    list[0] = v;
    return j;
}

uint32_t mtf_encode(const uint8_t *last, uint32_t n, const uint8_t *in_use,
                    uint16_t *syms, uint32_t *freq, int *alpha_size)
{
    uint8_t u2s[256], s2u[256], list[256];
    int nuse = build_seq_map(in_use, u2s, s2u);
    for (int i = 0; i < nuse; i++)
        list[i] = (uint8_t)i;
    for (int i = 0; i < nuse + 2; i++)
        freq[i] = 0;
    uint32_t o = 0, run = 0;
    for (uint32_t i = 0; i < n; i++) {
        int j = move_to_front(list, u2s[last[i]]);
        if (j == 0) {
            run++;
            continue;
        }
        o = flush_zero_run(run, syms, o, freq);
        run = 0;
        syms[o++] = (uint16_t)(j + 1);
        freq[j + 1]++;
    }
    o = flush_zero_run(run, syms, o, freq);
    syms[o++] = (uint16_t)(nuse + 1);
    freq[nuse + 1]++;
    *alpha_size = nuse + 2;
    return o;
}

/* Undo MTF/RLE; returns the block length, or UINT32_MAX on corrupt input. */
uint32_t mtf_decode(const uint16_t *syms, uint32_t nsyms, const uint8_t *in_use,
                    uint8_t *last, uint32_t cap)
{
    uint8_t u2s[256], s2u[256], list[256];
    int nuse = build_seq_map(in_use, u2s, s2u);
    for (int i = 0; i < nuse; i++)
        list[i] = (uint8_t)i;
    uint32_t o = 0, run = 0, weight = 1;
    for (uint32_t i = 0; i < nsyms; i++) {
        uint16_t s = syms[i];
        if (s == RUNA || s == RUNB) {
            run += weight << (s == RUNB);
            weight <<= 1;
            if (run > cap)
                return UINT32_MAX;
            continue;
        }
        if (run) {
            if (o + run > cap)
                return UINT32_MAX;
            uint8_t c = s2u[list[0]];
            while (run--)
                last[o++] = c;
            run = 0;
            weight = 1;
        }
        if (s == nuse + 1)
            return o;
        if (s > nuse || o >= cap)
            return UINT32_MAX;
        uint8_t v = list[s - 1];
        move_to_front(list, v);
        last[o++] = s2u[v];
    }
    return UINT32_MAX;
}
