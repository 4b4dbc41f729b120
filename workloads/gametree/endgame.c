/*
 * endgame.c - exact endgame solver: principal variation search on the
 * final disc difference with fastest-first ordering (fewest opponent
 * replies), the shared transposition table, and a small parity-ordered
 * alpha-beta without hashing for the last few empty squares.
 */
#include "othello.h"

#define SHALLOW_EMPTIES 6

static const bb_t quadrant_mask[4] = {
    0x000000000F0F0F0Full, 0x00000000F0F0F0F0ull,
    0x0F0F0F0F00000000ull, 0xF0F0F0F000000000ull,
};

/* Quadrants holding an odd number of empties: playing there keeps parity. */
static bb_t odd_regions(bb_t empty)
{
    bb_t odd = 0;
    for (int q = 0; q < 4; q++)
        if (popcount(empty & quadrant_mask[q]) & 1)
            odd |= quadrant_mask[q];
    return odd;
}

static int solve_shallow(search_t *s, const board_t *b, int alpha, int beta,
                         int passed)
{
    s->nodes++;
    bb_t empty = ~(b->me | b->opp);
    if (!empty)
        return final_score(b);
    bb_t moves = legal_moves(b->me, b->opp);
    if (!moves) {
        if (passed)
            return final_score(b);
        board_t nb = *b;
        board_pass(&nb);
        return -solve_shallow(s, &nb, -beta, -alpha, 1);
    }
    bb_t odd = odd_regions(empty);
    bb_t order[2] = { moves & odd, moves & ~odd };
    int best = -SCORE_INF;
    for (int pass = 0; pass < 2; pass++) {
        for (bb_t m = order[pass]; m; m &= m - 1) {
            int sq = first_square(m);
            board_t nb = *b;
            board_play(&nb, sq, flips_for(b->me, b->opp, sq));
            int v = -solve_shallow(s, &nb, -beta, -alpha, 0);
            if (v > best) {
                best = v;
                if (v > alpha)
                    alpha = v;
                if (alpha >= beta)
                    return best;
            }
        }
    }
    return best;
}

/* Fastest-first: moves that leave the opponent few replies come first. */
static void score_fastest_first(movelist_t *ml, const board_t *b, int tt_move)
{
    for (int i = 0; i < ml->n; i++) {
        int sq = ml->sq[i];
        board_t nb = *b;
        board_play(&nb, sq, flips_for(b->me, b->opp, sq));
        int mob = popcount(legal_moves(nb.me, nb.opp));
        int corner = (sq == 0 || sq == 7 || sq == 56 || sq == 63);
        ml->key[i] = -mob * 16 + corner * 8 + (sq == tt_move ? 1 << 20 : 0);
    }
}

static int solve(search_t *s, const board_t *b, uint64_t h, int color,
                 int alpha, int beta, int passed, int empties)
{
    if (empties <= SHALLOW_EMPTIES)
        return solve_shallow(s, b, alpha, beta, passed);
    s->nodes++;
    bb_t moves = legal_moves(b->me, b->opp);
    if (!moves) {
        if (passed)
            return final_score(b);
        board_t nb = *b;
        board_pass(&nb);
        return -solve(s, &nb, zobrist_after_pass(h), color ^ 1, -beta, -alpha,
                      1, empties);
    }
    const tt_entry_t *e = tt_probe(&s->tt, h);
    int tt_move = NO_MOVE;
    if (e) {
        tt_move = e->move;
        if (e->flag == TT_EXACT || (e->flag == TT_LOWER && e->score >= beta) ||
            (e->flag == TT_UPPER && e->score <= alpha))
            return e->score;
    }
    movelist_t ml;
    movelist_build(&ml, moves);
    score_fastest_first(&ml, b, tt_move);
    int best = -SCORE_INF, best_move = NO_MOVE, a = alpha;
    for (int i = 0; i < ml.n; i++) {
        int sq = movelist_pick(&ml, i);
        bb_t flips = flips_for(b->me, b->opp, sq);
        board_t nb = *b;
        board_play(&nb, sq, flips);
        uint64_t nh = zobrist_after_move(h, color, sq, flips);
        int v;
        if (i == 0) {
            v = -solve(s, &nb, nh, color ^ 1, -beta, -a, 0, empties - 1);
        } else {
            v = -solve(s, &nb, nh, color ^ 1, -a - 1, -a, 0, empties - 1);
            if (v > a && v < beta)
                v = -solve(s, &nb, nh, color ^ 1, -beta, -a, 0, empties - 1);
        }
        if (v > best) {
            best = v;
            best_move = sq;
            if (v > a)
                a = v;
            if (a >= beta)
                break;
        }
    }
    int flag = best <= alpha ? TT_UPPER : best >= beta ? TT_LOWER : TT_EXACT;
    tt_store(&s->tt, h, empties, best, flag, best_move);
    return best;
}

void endgame_solve(search_t *s, const board_t *b, result_t *res)
{
    uint64_t start = s->nodes;
    int empties = board_empties(b);
    bb_t moves = legal_moves(b->me, b->opp);
    res->best_move = moves ? NO_MOVE : PASS_MOVE;
    res->score = -SCORE_INF;
    int alpha = -65;
    /* root loop so that the best move is known exactly */
    movelist_t ml;
    movelist_build(&ml, moves);
    score_fastest_first(&ml, b, NO_MOVE);
    uint64_t h = zobrist_hash(b, 0);
    for (int i = 0; i < ml.n; i++) {
        int sq = movelist_pick(&ml, i);
        bb_t flips = flips_for(b->me, b->opp, sq);
        board_t nb = *b;
        board_play(&nb, sq, flips);
        uint64_t nh = zobrist_after_move(h, 0, sq, flips);
        int v = -solve(s, &nb, nh, 1, -65, -alpha, 0, empties - 1);
        if (v > res->score) {
            res->score = v;
            res->best_move = sq;
            if (v > alpha)
                alpha = v;
        }
    }
    if (!moves)
        res->score = solve(s, b, h, 0, -65, 65, 0, empties);
    res->depth = empties;
    res->nodes = s->nodes - start;
}
