/*
 * main.c - driver for the gametree workload: searches a fixed set of
 * Othello midgame positions with iterative deepening and solves endgame
 * positions exactly, cross-checks the results against plain reference
 * searches and compares a checksum of moves/scores/node counts with the
 * known value for the chosen size.
 */
#include <stdio.h>
#include <string.h>
#include "othello.h"

typedef struct {
    const char *name;
    int n_mid, mid_depth;
    int n_end, end_empties;
    int n_check_end, check_empties;
    int tt_log2;
    uint32_t expect;            /* known checksum, 0 = not recorded */
} size_cfg_t;

static const size_cfg_t sizes[] = {
    { "test",    4, 4, 2, 10, 2,  7, 15, 0xc12f5a60u },
    { "train",  6, 6, 4, 12, 3,  9, 17, 0xcf18d1feu },
    { "ref",   12, 7, 6, 14, 4, 10, 18, 0x8ef91280u },
};

#define MAX_POS 32

static const size_cfg_t *pick_size(int argc, char **argv)
{
    const char *want = argc > 1 ? argv[1] : "test";
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        if (strcmp(sizes[i].name, want) == 0)
            return &sizes[i];
    return NULL;
}

static uint32_t mix(uint32_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        h ^= (uint32_t)(v >> (8 * i)) & 0xFF;
        h *= 16777619u;
    }
    return h;
}

static void append_move(char *line, size_t cap, int sq, int score)
{
    char name[3], tmp[24];
    square_name(sq, name);
    snprintf(tmp, sizeof(tmp), " %s:%d", name, score);
    if (strlen(line) + strlen(tmp) < cap)
        strcat(line, tmp);
}

/* Midgame searches; returns the number of self-check failures. */
static int run_midgame(const size_cfg_t *cfg, search_t *s, uint32_t *check)
{
    position_t pos[MAX_POS];
    make_midgame_positions(pos, cfg->n_mid, 0xC0FFEE01ull);
    char line[512] = "";
    uint64_t total = 0, ref_nodes = 0;
    int bad = 0;
    for (int k = 0; k < cfg->n_mid; k++) {
        result_t res;
        search_reset(s);
        search_iterative(s, &pos[k].b, pos[k].color, cfg->mid_depth, &res);
        total += res.nodes;
        *check = mix(mix(mix(*check, (uint64_t)res.best_move), (uint64_t)res.score),
                     res.nodes);
        append_move(line, sizeof(line), res.best_move, res.score);
        int vd = cfg->mid_depth < 3 ? cfg->mid_depth : 3;
        int ref = alphabeta_plain(&pos[k].b, vd, -SCORE_INF, SCORE_INF, 0, &ref_nodes);
        if (ref != res.iter_score[vd]) {
            fprintf(stderr, "gametree: position %d depth %d: search %d, reference %d\n",
                    k, vd, res.iter_score[vd], ref);
            bad++;
        }
        if (k < 2 && cfg->mid_depth >= 3 &&
            minimax_plain(&pos[k].b, 3, 0, &ref_nodes) != res.iter_score[3]) {
            fprintf(stderr, "gametree: position %d: minimax disagrees\n", k);
            bad++;
        }
    }
    printf("  midgame depth %d:%s\n", cfg->mid_depth, line);
    printf("  midgame nodes %llu (reference %llu)\n", (unsigned long long)total,
           (unsigned long long)ref_nodes);
    return bad;
}

static int run_endgame(const size_cfg_t *cfg, search_t *s, uint32_t *check)
{
    position_t pos[MAX_POS];
    make_endgame_positions(pos, cfg->n_end, cfg->end_empties, 0xE0D6A4E5ull);
    char line[512] = "";
    uint64_t total = 0;
    for (int k = 0; k < cfg->n_end; k++) {
        result_t res;
        search_reset(s);
        endgame_solve(s, &pos[k].b, &res);
        total += res.nodes;
        *check = mix(mix(mix(*check, (uint64_t)res.best_move), (uint64_t)res.score),
                     res.nodes);
        append_move(line, sizeof(line), res.best_move, res.score);
    }
    printf("  endgame %d empties:%s\n", cfg->end_empties, line);
    printf("  endgame nodes %llu\n", (unsigned long long)total);
    return 0;
}

/* Exact solver against the plain reference on small endgames. */
static int check_endgames(const size_cfg_t *cfg, search_t *s, uint32_t *check)
{
    position_t pos[MAX_POS];
    make_endgame_positions(pos, cfg->n_check_end, cfg->check_empties, 0x5EED0E0Dull);
    int bad = 0;
    uint64_t ref_nodes = 0;
    for (int k = 0; k < cfg->n_check_end; k++) {
        result_t res;
        search_reset(s);
        endgame_solve(s, &pos[k].b, &res);
        int ref = exact_plain(&pos[k].b, -65, 65, 0, &ref_nodes);
        *check = mix(*check, (uint64_t)(res.score + 100));
        if (ref != res.score) {
            fprintf(stderr, "gametree: endgame check %d: solver %d, reference %d\n",
                    k, res.score, ref);
            bad++;
        }
    }
    printf("  endgame cross-check: %d positions at %d empties, reference nodes %llu\n",
           cfg->n_check_end, cfg->check_empties, (unsigned long long)ref_nodes);
    return bad;
}

int main(int argc, char **argv)
{
    const size_cfg_t *cfg = pick_size(argc, argv);
    if (!cfg) {
        fprintf(stderr, "usage: %s [test|train|ref]\n", argv[0]);
        return 2;
    }
    zobrist_init(0x2B0A4D11ull);
    static search_t s;
    search_init(&s, cfg->tt_log2);
    uint32_t check = 2166136261u;
    printf("gametree %s\n", cfg->name);
    int bad = run_midgame(cfg, &s, &check);
    bad += run_endgame(cfg, &s, &check);
    bad += check_endgames(cfg, &s, &check);
    search_free(&s);
    printf("checksum %08x\n", check);
    if (!bad && cfg->expect && check != cfg->expect) {
        fprintf(stderr, "gametree: checksum %08x, expected %08x\n", check, cfg->expect);
        bad++;
    }
    if (bad) {
        fprintf(stderr, "gametree: FAILED self-check\n");
        return 1;
    }
    printf("search results verified\n");
    return 0;
}
