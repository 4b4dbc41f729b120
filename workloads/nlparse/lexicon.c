/* lexicon.c - the nlparse dictionary: closed-class function words plus a
 * generated open-class vocabulary, stored in a chained hash table, with a
 * small suffix-stripping morphology (-s, -ed) used during lookup. */
#include "nlparse.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const onsets[] = {
    "b", "br", "c", "ch", "d", "dr", "f", "fl", "g", "gr", "h", "j", "k", "l", "m",
    "n", "p", "pl", "qu", "r", "s", "sh", "st", "t", "th", "tr", "v", "w", "z",
};
static const char *const nuclei[] = {"a", "e", "i", "o", "u", "ai", "ea", "ou", "oo"};
static const char *const codas[] = {"", "", "", "n", "r", "l", "m", "st", "nd", "ck", "x", "t"};

typedef struct fixed_word {
    const char *word;
    const char *pos;
} fixed_word;

static const fixed_word function_words[] = {
    {"the", "Det"}, {"a", "Det"}, {"an", "Det"}, {"every", "Det"}, {"some", "Det"},
    {"no", "Det"}, {"this", "Det"}, {"that", "Det"}, {"that", "Comp"}, {"which", "Comp"},
    {"who", "Comp"}, {"in", "Prep"}, {"on", "Prep"}, {"with", "Prep"}, {"of", "Prep"},
    {"under", "Prep"}, {"near", "Prep"}, {"for", "Prep"}, {"and", "Conj"}, {"or", "Conj"},
    {"but", "Conj"}, {"he", "Pron"}, {"she", "Pron"}, {"it", "Pron"}, {"they", "Pron"},
    {"we", "Pron"}, {"does", "Aux"}, {"did", "Aux"}, {"will", "Aux"}, {"can", "Aux"},
    {"very", "Adv"}, {"quite", "Adv"},
};

uint32_t str_hash(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h ^ (h >> 15);
}

static uint64_t pick(uint64_t *seed, uint64_t n) { return rng_next(seed) % n; }

lex_entry *lexicon_find(lexicon *lx, const char *w, size_t len)
{
    uint32_t h = str_hash(w, len);
    for (lex_entry *e = lx->buckets[h & (uint32_t)(lx->nbuckets - 1)]; e; e = e->next) {
        lx->probes++;
        if (e->hash == h && strlen(e->word) == len && memcmp(e->word, w, len) == 0)
            return e;
    }
    return NULL;
}

static lex_entry *lexicon_add(lexicon *lx, const char *w, uint32_t mask)
{
    size_t len = strlen(w);
    lex_entry *e = lexicon_find(lx, w, len);
    if (e) {
        e->pos_mask |= mask;
        return e;
    }
    e = calloc(1, sizeof(lex_entry));
    e->word = strdup(w);
    e->hash = str_hash(w, len);
    e->pos_mask = mask;
    uint32_t b = e->hash & (uint32_t)(lx->nbuckets - 1);
    e->next = lx->buckets[b];
    lx->buckets[b] = e;
    lx->nwords++;
    return e;
}

static void make_word(char *buf, size_t cap, uint64_t *seed)
{
    int syll = 1 + (int)pick(seed, 3);
    buf[0] = 0;
    for (int i = 0; i < syll; i++) {
        strncat(buf, onsets[pick(seed, sizeof(onsets) / sizeof(onsets[0]))], cap - strlen(buf) - 1);
        strncat(buf, nuclei[pick(seed, sizeof(nuclei) / sizeof(nuclei[0]))], cap - strlen(buf) - 1);
    }
    strncat(buf, codas[pick(seed, sizeof(codas) / sizeof(codas[0]))], cap - strlen(buf) - 1);
}

/* Primary part of speech for a generated word, with an optional second. */
static uint32_t random_mask(const grammar *g, uint64_t *seed, int *is_adv)
{
    static const char *const open_class[] = {"Noun", "Noun", "Noun", "Verb", "Verb", "IVerb", "Adj", "Adj", "Adv"};
    int k = (int)pick(seed, sizeof(open_class) / sizeof(open_class[0]));
    uint32_t mask = 1u << grammar_symbol(g, open_class[k]);
    *is_adv = strcmp(open_class[k], "Adv") == 0;
    if (!*is_adv && pick(seed, 100) < 20) {
        int k2 = (int)pick(seed, sizeof(open_class) / sizeof(open_class[0]) - 1);
        mask |= 1u << grammar_symbol(g, open_class[k2]);
    }
    return mask;
}

static void index_by_pos(lexicon *lx, const grammar *g)
{
    for (int p = 0; p < g->nterms; p++) {
        lx->by_pos[p] = malloc((size_t)lx->nwords * sizeof(lex_entry *));
        lx->npos[p] = 0;
    }
    /* Walk buckets in index order: deterministic, independent of addresses. */
    for (int b = 0; b < lx->nbuckets; b++)
        for (lex_entry *e = lx->buckets[b]; e; e = e->next)
            for (int p = 0; p < g->nterms; p++)
                if (e->pos_mask & (1u << p))
                    lx->by_pos[p][lx->npos[p]++] = e;
}

lexicon *lexicon_build(const grammar *g, int nwords, uint64_t *seed)
{
    lexicon *lx = calloc(1, sizeof(lexicon));
    lx->nbuckets = 1;
    while (lx->nbuckets < nwords)
        lx->nbuckets <<= 1;
    lx->buckets = calloc((size_t)lx->nbuckets, sizeof(lex_entry *));
    lx->noun = grammar_symbol(g, "Noun");
    lx->verb = grammar_symbol(g, "Verb");
    lx->iverb = grammar_symbol(g, "IVerb");
    for (size_t i = 0; i < sizeof(function_words) / sizeof(function_words[0]); i++)
        lexicon_add(lx, function_words[i].word, 1u << grammar_symbol(g, function_words[i].pos));
    while (lx->nwords < nwords) {
        char buf[64];
        int is_adv;
        make_word(buf, sizeof(buf) - 3, seed);
        uint32_t mask = random_mask(g, seed, &is_adv);
        if (is_adv)
            strcat(buf, "ly");
        lex_entry *old = lexicon_find(lx, buf, strlen(buf));
        if (old && old->pos_mask == mask)
            continue;
        lexicon_add(lx, buf, mask);
    }
    index_by_pos(lx, g);
    return lx;
}

static int ends_with(const char *w, size_t len, const char *suf)
{
    size_t sl = strlen(suf);
    return len > sl + 1 && memcmp(w + len - sl, suf, sl) == 0;
}

/* All parts of speech a surface form can have: exact entry plus analyses
 * obtained by stripping an inflectional suffix. */
uint32_t lexicon_analyse(lexicon *lx, const grammar *g, const char *w, size_t len)
{
    uint32_t mask = 0;
    uint32_t nominal = 1u << lx->noun;
    uint32_t verbal = (1u << lx->verb) | (1u << lx->iverb);
    lex_entry *e = lexicon_find(lx, w, len);
    if (e) {
        mask |= e->pos_mask;
        e->freq++;
    }
    if (ends_with(w, len, "s")) {
        lex_entry *st = lexicon_find(lx, w, len - 1);
        if (st)
            mask |= st->pos_mask & (nominal | verbal);
    }
    if (ends_with(w, len, "ed")) {
        lex_entry *st = lexicon_find(lx, w, len - 2);
        if (st)
            mask |= st->pos_mask & verbal;
    }
    return mask;
}
