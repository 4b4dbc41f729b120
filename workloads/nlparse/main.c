/* main.c - driver of the nlparse workload: builds the grammar and lexicon,
 * generates sentences (and perturbed variants), looks every word up in the
 * dictionary, parses with CYK and Earley, requires the two parsers to agree
 * and every generated sentence to parse, and checks known checksums. */
#include "nlparse.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct size_class {
    const char *name;
    int lexicon_words;
    int sentences;
    int maxlen;
    uint64_t expect;
} size_class;

static const size_class sizes[] = {
    {"test", 3000, 100, 24, 0xe1c902b70d09686bULL},
    {"train", 12000, 800, 32, 0x671a24c8f99942a1ULL},
    {"ref", 40000, 4200, 40, 0x50d1a93a1ad68422ULL},
};

typedef struct totals {
    uint64_t parses, digest, earley_items;
    long best_sum;
    int accepted, perturbed_accepted, disagreements, rejected_good, unknown_words;
} totals;

static int analyse_sentence(lexicon *lx, const grammar *g, const sentence *s, uint32_t *masks,
                            totals *t)
{
    const char *st[MAX_WORDS];
    int ln[MAX_WORDS];
    int n = tokenize(s->text, st, ln, MAX_WORDS);
    if (n > MAX_WORDS)
        n = MAX_WORDS;
    for (int i = 0; i < n; i++) {
        masks[i] = lexicon_analyse(lx, g, st[i], (size_t)ln[i]);
        if (!masks[i])
            t->unknown_words++;
    }
    return n;
}

static int parse_both(cyk_chart *cyk, earley *ea, const uint32_t *masks, int n, totals *t,
                      parse_result *res)
{
    cyk_parse(cyk, masks, n, res);
    int ok = earley_recognise(ea, masks, n, &t->earley_items);
    if (ok != res->accepted)
        t->disagreements++;
    t->digest = (t->digest ^ res->chart_sum) * 0x9e3779b97f4a7c15ULL + (uint64_t)n;
    return res->accepted;
}

int main(int argc, char **argv)
{
    const char *want = argc > 1 ? argv[1] : "test";
    const size_class *sc = NULL;
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        if (strcmp(sizes[i].name, want) == 0)
            sc = &sizes[i];
    if (!sc) {
        fprintf(stderr, "usage: %s [test|train|ref]\n", argv[0]);
        return 2;
    }
    uint64_t seed = 0x6e6c7061727365ULL;
    grammar *g = grammar_build();
    lexicon *lx = lexicon_build(g, sc->lexicon_words, &seed);
    cyk_chart *cyk = cyk_new(g, MAX_WORDS);
    earley *ea = earley_new(g, MAX_WORDS);
    totals t;
    memset(&t, 0, sizeof(t));

    for (int k = 0; k < sc->sentences; k++) {
        sentence s;
        uint32_t masks[MAX_WORDS];
        parse_result res;
        sentence_generate(g, lx, sc->maxlen, &seed, &s);
        int n = analyse_sentence(lx, g, &s, masks, &t);
        if (parse_both(cyk, ea, masks, n, &t, &res)) {
            t.accepted++;
            t.parses += res.count;
            t.best_sum += res.best;
        } else {
            t.rejected_good++;
        }
        sentence_perturb(&s, &seed);
        n = analyse_sentence(lx, g, &s, masks, &t);
        if (parse_both(cyk, ea, masks, n, &t, &res)) {
            t.perturbed_accepted++;
            t.parses += res.count * 3;
        }
    }
    uint64_t checksum = t.digest ^ (t.parses * 0xff51afd7ed558ccdULL) ^ (uint64_t)t.best_sum;
    printf("nlparse %s: lexicon=%d symbols=%d rules=%d (cnf %d+%d) sentences=%d\n", sc->name,
           lx->nwords, g->nsyms, g->nrules, g->nbin, g->nun, sc->sentences);
    printf("  accepted=%d perturbed_accepted=%d best_sum=%ld parses=%016llx\n", t.accepted,
           t.perturbed_accepted, t.best_sum, (unsigned long long)t.parses);
    printf("  earley_items=%llu dict_probes=%llu\n", (unsigned long long)t.earley_items,
           (unsigned long long)lx->probes);
    printf("nlparse %s: checksum=%016llx\n", sc->name, (unsigned long long)checksum);
    int fail = 0;
    if (t.disagreements) {
        fprintf(stderr, "nlparse: CYK and Earley disagree on %d sentences\n", t.disagreements);
        fail = 1;
    }
    if (t.rejected_good || t.unknown_words) {
        fprintf(stderr, "nlparse: %d generated sentences rejected, %d unknown words\n",
                t.rejected_good, t.unknown_words);
        fail = 1;
    }
    if (sc->expect && checksum != sc->expect) {
        fprintf(stderr, "nlparse: checksum mismatch (expected %016llx)\n",
                (unsigned long long)sc->expect);
        fail = 1;
    }
    return fail;
}
