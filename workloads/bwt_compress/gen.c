/*
 * gen.c - synthetic input for bwt_compress: a mix of English-like prose,
 * log/record lines, slowly varying numeric tables and byte runs, all drawn
 * from a fixed-seed PRNG so every build sees identical bytes.
 */
#include <string.h>
#include "bwt.h"

#define NWORDS 1500
#define MAXWORD 14

typedef struct {
    char words[NWORDS][MAXWORD + 1];
    uint8_t wlen[NWORDS];
    prng_t rng;
    uint8_t *out;
    size_t pos, len;
} gen_t;

static const char *const syllables[] = {
    "th", "e", "an", "re", "on", "at", "en", "nd", "ti", "es", "or", "te",
    "of", "ed", "is", "it", "al", "ar", "st", "to", "nt", "ng", "se", "ha",
    "as", "ou", "io", "le", "ve", "co", "me", "de", "hi", "ri", "ro", "ic",
    "ne", "ea", "ra", "ce", "li", "ch", "ll", "be", "ma", "si", "om", "ur"
};
#define NSYL (sizeof(syllables) / sizeof(syllables[0]))

static void emit(gen_t *g, uint8_t c)
{
    if (g->pos < g->len)
        g->out[g->pos++] = c;
}

static void emit_str(gen_t *g, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        emit(g, (uint8_t)s[i]);
}

static void emit_uint(gen_t *g, uint32_t v, int width)
{
    char tmp[12];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v && n < 11);
    while (n < width && n < 11)
        tmp[n++] = '0';
    while (n > 0)
        emit(g, (uint8_t)tmp[--n]);
}

static void build_vocabulary(gen_t *g)
{
    for (int i = 0; i < NWORDS; i++) {
        int nsyl = 1 + (int)prng_below(&g->rng, 3) + (i > 200 ? 1 : 0);
        int len = 0;
        for (int s = 0; s < nsyl; s++) {
            const char *sy = syllables[prng_below(&g->rng, NSYL)];
            size_t sl = strlen(sy);
            if (len + (int)sl > MAXWORD)
                break;
            memcpy(&g->words[i][len], sy, sl);
            len += (int)sl;
        }
        g->words[i][len] = 0;
        g->wlen[i] = (uint8_t)len;
    }
}

/* Skewed (roughly Zipfian) word pick: small indices are far more common. */
static int pick_word(gen_t *g)
{
    uint32_t a = prng_below(&g->rng, NWORDS);
    uint32_t b = prng_below(&g->rng, NWORDS);
    uint32_t c = prng_below(&g->rng, NWORDS);
    return (int)((uint64_t)a * b / NWORDS * c / NWORDS);
}

static void gen_sentence(gen_t *g)
{
    int nw = 4 + (int)prng_below(&g->rng, 14);
    for (int i = 0; i < nw; i++) {
        int w = pick_word(g);
        if (i == 0) {
            emit(g, (uint8_t)(g->words[w][0] - 'a' + 'A'));
            emit_str(g, g->words[w] + 1, g->wlen[w] - 1u);
        } else {
            emit_str(g, g->words[w], g->wlen[w]);
        }
        if (i + 1 < nw) {
            if (prng_below(&g->rng, 9) == 0)
                emit(g, ',');
            emit(g, ' ');
        }
    }
    emit(g, prng_below(&g->rng, 7) == 0 ? '?' : '.');
}

static void gen_prose(gen_t *g, size_t bytes)
{
    size_t end = g->pos + bytes;
    int col = 0;
    while (g->pos < end && g->pos < g->len) {
        size_t before = g->pos;
        gen_sentence(g);
        col += (int)(g->pos - before);
        if (col > 60) {
            emit(g, '\n');
            col = 0;
            if (prng_below(&g->rng, 6) == 0)
                emit(g, '\n');
        } else {
            emit(g, ' ');
        }
    }
}

static void gen_log_lines(gen_t *g, size_t bytes)
{
    static const char *const level[] = { "INFO", "WARN", "DEBUG", "ERROR" };
    size_t end = g->pos + bytes;
    uint32_t t = 3600u * prng_below(&g->rng, 24);
    uint32_t id = prng_below(&g->rng, 50000);
    while (g->pos < end && g->pos < g->len) {
        t += prng_below(&g->rng, 40);
        id += 1 + prng_below(&g->rng, 3);
        emit_uint(g, t / 3600 % 24, 2);
        emit(g, ':');
        emit_uint(g, t / 60 % 60, 2);
        emit(g, ':');
        emit_uint(g, t % 60, 2);
        emit(g, ' ');
        const char *lv = level[prng_below(&g->rng, 16) % 4 == 3
                               ? 3 : prng_below(&g->rng, 3)];
        emit_str(g, lv, strlen(lv));
        emit_str(g, " req=", 5);
        emit_uint(g, id, 6);
        emit_str(g, " user=", 6);
        int w = pick_word(g);
        emit_str(g, g->words[w], g->wlen[w]);
        emit_str(g, " bytes=", 7);
        emit_uint(g, prng_below(&g->rng, 1u << (4 + prng_below(&g->rng, 14))), 1);
        emit(g, '\n');
    }
}

static void gen_table(gen_t *g, size_t bytes)
{
    size_t end = g->pos + bytes;
    int32_t v[4] = { 1000, 2000, 500, 0 };
    while (g->pos + 8 <= end && g->pos + 8 <= g->len) {
        for (int k = 0; k < 4; k++) {
            v[k] += (int32_t)prng_below(&g->rng, 17) - 8;
            uint16_t u = (uint16_t)v[k];
            emit(g, (uint8_t)(u >> 8));
            emit(g, (uint8_t)u);
        }
    }
}

static void gen_runs(gen_t *g, size_t bytes)
{
    size_t end = g->pos + bytes;
    while (g->pos < end && g->pos < g->len) {
        uint8_t c = (uint8_t)prng_below(&g->rng, 256);
        uint32_t run = 1 + prng_below(&g->rng, prng_below(&g->rng, 8) == 0 ? 300 : 6);
        for (uint32_t i = 0; i < run; i++)
            emit(g, c);
    }
}

size_t generate_input(uint8_t *out, size_t len, uint64_t seed)
{
    static gen_t g;
    prng_seed(&g.rng, seed);
    g.out = out;
    g.pos = 0;
    g.len = len;
    build_vocabulary(&g);
    while (g.pos < len) {
        uint32_t kind = prng_below(&g.rng, 10);
        size_t chunk = 2000 + prng_below(&g.rng, 30000);
        if (kind < 5)
            gen_prose(&g, chunk);
        else if (kind < 8)
            gen_log_lines(&g, chunk);
        else if (kind < 9)
            gen_table(&g, chunk / 2);
        else
            gen_runs(&g, chunk / 4);
        if (kind >= 8 && g.pos < len && g.pos + 8 > len)
            while (g.pos < len)
                emit(&g, '\n');
    }
    return g.pos;
}
