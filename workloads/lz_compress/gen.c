/*
 * gen.c - synthetic input for lz_compress: pseudo source code (keywords,
 * identifiers, nesting), CSV-style records, packed binary structures and
 * short noisy stretches, all from a fixed-seed PRNG.
 */
#include <string.h>
#include "lz.h"

#define NIDENT 400

typedef struct {
    prng_t rng;
    uint8_t *out;
    size_t pos, len;
    char ident[NIDENT][16];
    int depth;
} src_gen_t;

static const char *const keywords[] = {
    "if", "else", "while", "for", "return", "int", "static", "const",
    "struct", "unsigned", "break", "switch", "case", "void", "char", "sizeof"
};
#define NKEYW (sizeof(keywords) / sizeof(keywords[0]))

static void put(src_gen_t *g, char c)
{
    if (g->pos < g->len)
        g->out[g->pos++] = (uint8_t)c;
}

static void puts_n(src_gen_t *g, const char *s)
{
    while (*s)
        put(g, *s++);
}

static void put_num(src_gen_t *g, uint32_t v)
{
    char tmp[12];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        put(g, tmp[--n]);
}

static void make_identifiers(src_gen_t *g)
{
    static const char *const parts[] = {
        "buf", "len", "node", "next", "count", "idx", "ptr", "tmp", "val",
        "list", "head", "size", "key", "hash", "state", "flag", "ctx", "pos"
    };
    const int np = (int)(sizeof(parts) / sizeof(parts[0]));
    for (int i = 0; i < NIDENT; i++) {
        const char *a = parts[prng_below(&g->rng, (uint32_t)np)];
        const char *b = parts[prng_below(&g->rng, (uint32_t)np)];
        size_t la = strlen(a), lb = strlen(b);
        memcpy(g->ident[i], a, la);
        g->ident[i][la] = '_';
        memcpy(g->ident[i] + la + 1, b, lb);
        g->ident[i][la + 1 + lb] = 0;
    }
}

static const char *some_ident(src_gen_t *g)
{
    uint32_t r = prng_below(&g->rng, NIDENT);
    return g->ident[r * r / NIDENT];
}

static void indent(src_gen_t *g)
{
    for (int i = 0; i < g->depth; i++)
        puts_n(g, "    ");
}

static void gen_expression(src_gen_t *g, int budget)
{
    static const char *const ops[] = { " + ", " - ", " * ", " & ", " << ", " == ", " < " };
    puts_n(g, some_ident(g));
    while (budget-- > 0 && prng_below(&g->rng, 3)) {
        puts_n(g, ops[prng_below(&g->rng, 7)]);
        if (prng_below(&g->rng, 3) == 0)
            put_num(g, prng_below(&g->rng, 1000));
        else
            puts_n(g, some_ident(g));
    }
}

static void gen_statement(src_gen_t *g)
{
    uint32_t kind = prng_below(&g->rng, 10);
    indent(g);
    if (kind < 2 && g->depth < 5) {
        puts_n(g, kind == 0 ? "if (" : "while (");
        gen_expression(g, 3);
        puts_n(g, ") {\n");
        g->depth++;
        int n = 1 + (int)prng_below(&g->rng, 4);
        for (int i = 0; i < n; i++)
            gen_statement(g);
        g->depth--;
        indent(g);
        puts_n(g, "}\n");
    } else if (kind < 4) {
        puts_n(g, keywords[prng_below(&g->rng, NKEYW)]);
        put(g, ' ');
        puts_n(g, some_ident(g));
        puts_n(g, " = ");
        gen_expression(g, 4);
        puts_n(g, ";\n");
    } else if (kind < 5) {
        puts_n(g, "return ");
        gen_expression(g, 2);
        puts_n(g, ";\n");
    } else {
        puts_n(g, some_ident(g));
        puts_n(g, " = ");
        gen_expression(g, 5);
        puts_n(g, ";\n");
    }
}

static void gen_source(src_gen_t *g, size_t bytes)
{
    size_t end = g->pos + bytes;
    while (g->pos < end && g->pos < g->len) {
        puts_n(g, "static int ");
        puts_n(g, some_ident(g));
        puts_n(g, "(struct ");
        puts_n(g, some_ident(g));
        puts_n(g, " *");
        puts_n(g, some_ident(g));
        puts_n(g, ")\n{\n");
        g->depth = 1;
        int n = 3 + (int)prng_below(&g->rng, 10);
        for (int i = 0; i < n; i++)
            gen_statement(g);
        puts_n(g, "}\n\n");
    }
}

static void gen_csv(src_gen_t *g, size_t bytes)
{
    size_t end = g->pos + bytes;
    uint32_t row = prng_below(&g->rng, 100000);
    uint32_t price = 1000 + prng_below(&g->rng, 9000);
    while (g->pos < end && g->pos < g->len) {
        put_num(g, row++);
        put(g, ',');
        puts_n(g, some_ident(g));
        put(g, ',');
        price = price + prng_below(&g->rng, 41) - 20;
        put_num(g, price / 100);
        put(g, '.');
        put(g, (char)('0' + price / 10 % 10));
        put(g, (char)('0' + price % 10));
        put(g, ',');
        put_num(g, prng_below(&g->rng, 5) * 250);
        puts_n(g, prng_below(&g->rng, 4) ? ",OK\n" : ",RETRY\n");
    }
}

static void gen_binary(src_gen_t *g, size_t bytes)
{
    size_t end = g->pos + bytes;
    uint32_t id = prng_below(&g->rng, 1u << 20), t = 0;
    while (g->pos + 16 <= end && g->pos + 16 <= g->len) {
        id += 1 + prng_below(&g->rng, 2);
        t += prng_below(&g->rng, 300);
        uint32_t f[4] = { id, t, prng_below(&g->rng, 16), 0xCAFE0000u | prng_below(&g->rng, 4) };
        for (int k = 0; k < 4; k++)
            for (int s = 0; s < 32; s += 8)
                put(g, (char)(f[k] >> s));
    }
}

static void gen_noise(src_gen_t *g, size_t bytes)
{
    for (size_t i = 0; i < bytes; i++)
        put(g, (char)prng_below(&g->rng, 256));
}

size_t generate_input(uint8_t *out, size_t len, uint64_t seed)
{
    static src_gen_t g;
    prng_seed(&g.rng, seed);
    g.out = out;
    g.pos = 0;
    g.len = len;
    make_identifiers(&g);
    while (g.pos < len) {
        uint32_t kind = prng_below(&g.rng, 20);
        size_t chunk = 1000 + prng_below(&g.rng, 20000);
        if (kind < 10)
            gen_source(&g, chunk);
        else if (kind < 15)
            gen_csv(&g, chunk);
        else if (kind < 19)
            gen_binary(&g, chunk);
        else
            gen_noise(&g, chunk / 8);
        if (g.pos + 16 > len)
            gen_noise(&g, len - g.pos);
    }
    return g.pos;
}
