/*
 * tables.c - the deflate length and distance alphabets: base values and
 * extra-bit counts derived at start-up, value-to-code lookup tables, and
 * the code-length alphabet transmission order.
 */
#include "lz.h"

const uint8_t clen_order[NCLEN] = {
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15
};

static uint16_t lbase[29], dbase[NDIST];
static uint8_t lextra[29], dextra[NDIST];
static uint8_t len_to_code[MAX_MATCH + 1];
static uint8_t dist_to_code[512];

static void init_length_tables(void)
{
    int base = 3;
    for (int c = 0; c < 28; c++) {
        lextra[c] = (uint8_t)(c < 8 ? 0 : (c - 4) / 4);
        lbase[c] = (uint16_t)base;
        base += 1 << lextra[c];
    }
    lbase[28] = MAX_MATCH;
    lextra[28] = 0;
    for (int c = 0; c < 28; c++)
        for (int l = lbase[c]; l < lbase[c] + (1 << lextra[c]) && l < MAX_MATCH; l++)
            len_to_code[l] = (uint8_t)c;
    len_to_code[MAX_MATCH] = 28;
}

static void init_dist_tables(void)
{
    int base = 1;
    for (int c = 0; c < NDIST; c++) {
        dextra[c] = (uint8_t)(c < 4 ? 0 : (c - 2) / 2);
        dbase[c] = (uint16_t)base;
        base += 1 << dextra[c];
    }
    for (int c = 0; c < NDIST; c++) {
        for (int d = dbase[c]; d < dbase[c] + (1 << dextra[c]); d++) {
            if (d <= 256)
                dist_to_code[d - 1] = (uint8_t)c;
            else
                dist_to_code[256 + ((d - 1) >> 7)] = (uint8_t)c;
        }
    }
}

void tables_init(void)
{
    init_length_tables();
    init_dist_tables();
}

int length_code(int len) { return len_to_code[len]; }
int length_extra(int code) { return lextra[code]; }
int length_base(int code) { return lbase[code]; }
int dist_extra(int code) { return dextra[code]; }
int dist_base(int code) { return dbase[code]; }

int dist_code(int dist)
{
    return dist <= 256 ? dist_to_code[dist - 1] : dist_to_code[256 + ((dist - 1) >> 7)];
}

uint32_t reverse_bits(uint32_t v, int n)
{
    uint32_t r = 0;
    for (int i = 0; i < n; i++) {
        r = (r << 1) | (v & 1);
        v >>= 1;
    }
    return r;
}
