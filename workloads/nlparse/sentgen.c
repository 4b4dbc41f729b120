/* sentgen.c - random sentence generation for nlparse: derives a string of
 * parts of speech from the grammar with a depth bound, realises each with a
 * (possibly inflected) lexicon word, and perturbs sentences to make
 * ungrammatical inputs.  Also the whitespace tokenizer. */
#include "nlparse.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int choose_rule(const grammar *g, int sym, int depth, uint64_t *seed)
{
    int total = 0, best = -1, best_len = 1 << 30;
    for (int i = 0; i < g->nrules; i++) {
        const rule *r = &g->rules[i];
        if (r->lhs != sym)
            continue;
        total += r->gen_weight;
        int len = 0;
        for (int k = 0; k < r->nrhs; k++)
            len += g->min_len[r->rhs[k]];
        if (len < best_len) {
            best_len = len;
            best = i;
        }
    }
    if (depth > 8)
        return best;
    int x = (int)(rng_next(seed) % (uint64_t)total);
    for (int i = 0; i < g->nrules; i++) {
        if (g->rules[i].lhs != sym)
            continue;
        x -= g->rules[i].gen_weight;
        if (x < 0)
            return i;
    }
    return best;
}

static void derive(const grammar *g, int sym, int depth, uint64_t *seed, int *out, int *n, int max)
{
    if (sym < g->nterms) {
        if (*n < max)
            out[*n] = sym;
        (*n)++;
        return;
    }
    const rule *r = &g->rules[choose_rule(g, sym, depth, seed)];
    for (int k = 0; k < r->nrhs; k++)
        derive(g, r->rhs[k], depth + 1, seed, out, n, max);
}

/* Surface form for a word used as part of speech pos. */
static void realise(const grammar *g, lexicon *lx, int pos, uint64_t *seed, char *buf, size_t cap)
{
    const lex_entry *e = lx->by_pos[pos][rng_next(seed) % (uint64_t)lx->npos[pos]];
    int noun = lx->noun, verb = lx->verb, iverb = lx->iverb;
    const char *suffix = "";
    uint64_t r = rng_next(seed) % 10;
    if (pos == noun && r < 3)
        suffix = "s";
    else if ((pos == verb || pos == iverb) && r < 3)
        suffix = "ed";
    else if ((pos == verb || pos == iverb) && r < 5)
        suffix = "s";
    snprintf(buf, cap, "%s%s", e->word, suffix);
    /* Keep the inflection only if it does not shadow another entry. */
    if (*suffix && lexicon_find(lx, buf, strlen(buf)))
        snprintf(buf, cap, "%s", e->word);
}

int sentence_generate(const grammar *g, lexicon *lx, int maxlen, uint64_t *seed, sentence *out)
{
    int pos[MAX_WORDS * 4], n;
    do {
        n = 0;
        derive(g, g->start, 0, seed, pos, &n, MAX_WORDS * 4);
    } while (n > maxlen || n < 3);
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        char w[64];
        realise(g, lx, pos[i], seed, w, sizeof(w));
        at += (size_t)snprintf(out->text + at, sizeof(out->text) - at, "%s%s", i ? " " : "", w);
    }
    out->nwords = n;
    return n;
}

int tokenize(const char *text, const char **starts, int *lens, int max)
{
    int n = 0;
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *s = p;
        while (*p && *p != ' ')
            p++;
        if (n < max) {
            starts[n] = s;
            lens[n] = (int)(p - s);
        }
        n++;
    }
    return n;
}

/* Swap two words or drop one: usually makes the sentence ungrammatical. */
void sentence_perturb(sentence *s, uint64_t *seed)
{
    const char *st[MAX_WORDS];
    int ln[MAX_WORDS];
    int n = tokenize(s->text, st, ln, MAX_WORDS);
    if (n > MAX_WORDS)
        n = MAX_WORDS;
    int order[MAX_WORDS];
    for (int i = 0; i < n; i++)
        order[i] = i;
    int a = (int)(rng_next(seed) % (uint64_t)n);
    int b = (int)(rng_next(seed) % (uint64_t)n);
    int drop = -1;
    if (rng_next(seed) % 3 == 0)
        drop = a;
    else {
        int t = order[a];
        order[a] = order[b];
        order[b] = t;
    }
    char buf[sizeof(s->text)];
    size_t at = 0;
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (i == drop)
            continue;
        at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s%.*s", m ? " " : "",
                               ln[order[i]], st[order[i]]);
        m++;
    }
    memcpy(s->text, buf, at + 1);
    s->nwords = m;
}
