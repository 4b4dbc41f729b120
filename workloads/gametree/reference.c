/*
 * reference.c - deliberately simple reference searches used by the
 * self-check: plain minimax, plain alpha-beta in natural move order, and
 * a plain exact endgame alpha-beta, all without hashing or heuristics.
 */
#include "othello.h"

static int terminal_value(const board_t *b)
{
    return final_score(b) * WIN_SCALE;
}

int minimax_plain(const board_t *b, int depth, int passed, uint64_t *nodes)
{
    (*nodes)++;
    if (depth <= 0)
        return evaluate(b);
    bb_t moves = legal_moves(b->me, b->opp);
    if (!moves) {
        if (passed)
            return terminal_value(b);
        board_t nb = *b;
        board_pass(&nb);
        return -minimax_plain(&nb, depth, 1, nodes);
    }
    int best = -SCORE_INF;
    for (; moves; moves &= moves - 1) {
        int sq = first_square(moves);
        board_t nb = *b;
        board_play(&nb, sq, flips_for(b->me, b->opp, sq));
        int v = -minimax_plain(&nb, depth - 1, 0, nodes);
        if (v > best)
            best = v;
    }
    return best;
}

int alphabeta_plain(const board_t *b, int depth, int alpha, int beta,
                    int passed, uint64_t *nodes)
{
    (*nodes)++;
    if (depth <= 0)
        return evaluate(b);
    bb_t moves = legal_moves(b->me, b->opp);
    if (!moves) {
        if (passed)
            return terminal_value(b);
        board_t nb = *b;
        board_pass(&nb);
        return -alphabeta_plain(&nb, depth, -beta, -alpha, 1, nodes);
    }
    for (; moves; moves &= moves - 1) {
        int sq = first_square(moves);
        board_t nb = *b;
        board_play(&nb, sq, flips_for(b->me, b->opp, sq));
        int v = -alphabeta_plain(&nb, depth - 1, -beta, -alpha, 0, nodes);
        if (v >= beta)
            return beta;
        if (v > alpha)
            alpha = v;
    }
    return alpha;
}

int exact_plain(const board_t *b, int alpha, int beta, int passed,
                uint64_t *nodes)
{
    (*nodes)++;
    bb_t moves = legal_moves(b->me, b->opp);
    if (!moves) {
        if (passed || board_empties(b) == 0)
            return final_score(b);
        board_t nb = *b;
        board_pass(&nb);
        return -exact_plain(&nb, -beta, -alpha, 1, nodes);
    }
    for (; moves; moves &= moves - 1) {
        int sq = first_square(moves);
        board_t nb = *b;
        board_play(&nb, sq, flips_for(b->me, b->opp, sq));
        int v = -exact_plain(&nb, -beta, -alpha, 0, nodes);
        if (v >= beta)
            return beta;
        if (v > alpha)
            alpha = v;
    }
    return alpha;
}
