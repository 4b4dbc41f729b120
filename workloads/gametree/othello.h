/*
 * othello.h - shared declarations for the gametree workload: an Othello
 * engine on 64-bit bitboards with negamax alpha-beta (principal variation
 * search), iterative deepening, killer/history move ordering, a Zobrist
 * hashed transposition table and an exact endgame solver.
 */
#ifndef OTHELLO_H
#define OTHELLO_H

#include <stdint.h>

typedef uint64_t bb_t;

typedef struct { uint64_t s; } prng_t;
void     prng_seed(prng_t *r, uint64_t seed);
uint64_t prng_next(prng_t *r);
uint32_t prng_below(prng_t *r, uint32_t n);

/* ---- board (board.c) ---- */
typedef struct {
    bb_t me, opp;             /* side to move, other side */
} board_t;

#define PASS_MOVE 64
#define NO_MOVE 65

int  popcount(bb_t x);
int  first_square(bb_t x);
bb_t legal_moves(bb_t me, bb_t opp);
bb_t flips_for(bb_t me, bb_t opp, int sq);
void board_start(board_t *b);
void board_play(board_t *b, int sq, bb_t flips);
void board_pass(board_t *b);
int  board_empties(const board_t *b);
int  final_score(const board_t *b);
void square_name(int sq, char out[3]);

/* ---- Zobrist hashing (zobrist.c) ---- */
void     zobrist_init(uint64_t seed);
uint64_t zobrist_hash(const board_t *b, int color);
uint64_t zobrist_after_move(uint64_t h, int color, int sq, bb_t flips);
uint64_t zobrist_after_pass(uint64_t h);

/* ---- transposition table (tt.c) ---- */
enum { TT_EXACT = 0, TT_LOWER = 1, TT_UPPER = 2 };
typedef struct {
    uint64_t key;
    int32_t score;
    int8_t depth;
    uint8_t flag;
    uint8_t move;
    uint8_t age;
} tt_entry_t;

typedef struct {
    tt_entry_t *e;
    uint32_t mask;
    uint64_t probes, hits, stores;
    uint8_t age;
} tt_t;

void tt_create(tt_t *t, int log2_entries);
void tt_destroy(tt_t *t);
void tt_clear(tt_t *t);
const tt_entry_t *tt_probe(tt_t *t, uint64_t key);
void tt_store(tt_t *t, uint64_t key, int depth, int score, int flag, int move);

/* ---- evaluation (eval.c) ---- */
#define SCORE_INF 1000000
#define WIN_SCALE 10000
int evaluate(const board_t *b);

/* ---- move ordering (order.c) ---- */
#define MAX_PLY 64
typedef struct {
    uint8_t killer[MAX_PLY][2];
    int32_t history[2][64];
} order_t;

typedef struct {
    uint8_t sq[32];
    int32_t key[32];
    int n;
} movelist_t;

void order_clear(order_t *o);
void order_age(order_t *o);
void movelist_build(movelist_t *ml, bb_t moves);
void movelist_score(movelist_t *ml, const order_t *o, int ply, int color,
                    int tt_move);
int  movelist_pick(movelist_t *ml, int i);
void order_reward(order_t *o, int ply, int color, int sq, int depth);

/* ---- search (search.c, endgame.c) ---- */
typedef struct {
    tt_t tt;
    order_t ord;
    uint64_t nodes, leaves;
    int root_color;
} search_t;

typedef struct {
    int best_move;
    int score;
    int depth;
    int iter_score[MAX_PLY];
    uint64_t nodes;
} result_t;

void search_init(search_t *s, int tt_log2);
void search_free(search_t *s);
void search_reset(search_t *s);
void search_iterative(search_t *s, const board_t *b, int color, int max_depth,
                      result_t *res);
void endgame_solve(search_t *s, const board_t *b, result_t *res);

/* plain reference searches (reference.c) */
int  minimax_plain(const board_t *b, int depth, int passed, uint64_t *nodes);
int  alphabeta_plain(const board_t *b, int depth, int alpha, int beta,
                     int passed, uint64_t *nodes);
int  exact_plain(const board_t *b, int alpha, int beta, int passed,
                 uint64_t *nodes);

/* ---- test positions (positions.c) ---- */
typedef struct {
    board_t b;
    int color;
    int ply;
} position_t;

int  make_midgame_positions(position_t *out, int n, uint64_t seed);
int  make_endgame_positions(position_t *out, int n, int empties, uint64_t seed);

#endif
