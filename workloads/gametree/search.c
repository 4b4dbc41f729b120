/*
 * search.c - midgame search: negamax principal variation search with a
 * transposition table, killer/history ordering, pass handling and exact
 * scoring of finished games, driven by iterative deepening at the root.
 */
#include "othello.h"

void search_init(search_t *s, int tt_log2)
{
    tt_create(&s->tt, tt_log2);
    search_reset(s);
}

void search_free(search_t *s)
{
    tt_destroy(&s->tt);
}

void search_reset(search_t *s)
{
    tt_clear(&s->tt);
    order_clear(&s->ord);
    s->nodes = s->leaves = 0;
}

static int game_over_score(const board_t *b)
{
    return final_score(b) * WIN_SCALE;
}

/* Returns 1 and sets *score when the stored entry decides this node. */
static int tt_cutoff(const tt_entry_t *e, int depth, int alpha, int beta,
                     int *score)
{
    if (!e || e->depth - 1 < depth)
        return 0;
    if (e->flag == TT_EXACT ||
        (e->flag == TT_LOWER && e->score >= beta) ||
        (e->flag == TT_UPPER && e->score <= alpha)) {
        *score = e->score;
        return 1;
    }
    return 0;
}

static int bound_flag(int best, int alpha, int beta)
{
    return best <= alpha ? TT_UPPER : best >= beta ? TT_LOWER : TT_EXACT;
}

static int pvs(search_t *s, const board_t *b, uint64_t h, int color, int depth,
               int alpha, int beta, int ply, int passed);

static int search_pass(search_t *s, const board_t *b, uint64_t h, int color,
                       int depth, int alpha, int beta, int ply, int passed)
{
    if (passed)
        return game_over_score(b);
    board_t nb = *b;
    board_pass(&nb);
    return -pvs(s, &nb, zobrist_after_pass(h), color ^ 1, depth, -beta, -alpha,
                ply + 1, 1);
}

/* Search one child, with a null-window probe for all but the first move. */
static int search_child(search_t *s, const board_t *b, uint64_t h, int color,
                        int sq, int depth, int alpha, int beta, int ply,
                        int first)
{
    bb_t flips = flips_for(b->me, b->opp, sq);
    board_t nb = *b;
    board_play(&nb, sq, flips);
    uint64_t nh = zobrist_after_move(h, color, sq, flips);
    if (first)
        return -pvs(s, &nb, nh, color ^ 1, depth - 1, -beta, -alpha, ply + 1, 0);
    int v = -pvs(s, &nb, nh, color ^ 1, depth - 1, -alpha - 1, -alpha, ply + 1, 0);
    if (v > alpha && v < beta)
        v = -pvs(s, &nb, nh, color ^ 1, depth - 1, -beta, -alpha, ply + 1, 0);
    return v;
}

static int pvs(search_t *s, const board_t *b, uint64_t h, int color, int depth,
               int alpha, int beta, int ply, int passed)
{
    s->nodes++;
    if (depth <= 0) {
        s->leaves++;
        return evaluate(b);
    }
    bb_t moves = legal_moves(b->me, b->opp);
    if (!moves)
        return search_pass(s, b, h, color, depth, alpha, beta, ply, passed);
    const tt_entry_t *e = tt_probe(&s->tt, h);
    int score, tt_move = e ? e->move : NO_MOVE;
    if (tt_cutoff(e, depth, alpha, beta, &score))
        return score;
    movelist_t ml;
    movelist_build(&ml, moves);
    movelist_score(&ml, &s->ord, ply, color, tt_move);
    int best = -SCORE_INF, best_move = NO_MOVE, a = alpha;
    for (int i = 0; i < ml.n; i++) {
        int sq = movelist_pick(&ml, i);
        int v = search_child(s, b, h, color, sq, depth, a, beta, ply, i == 0);
        if (v > best) {
            best = v;
            best_move = sq;
            if (v > a)
                a = v;
            if (a >= beta) {
                order_reward(&s->ord, ply, color, sq, depth);
                break;
            }
        }
    }
    tt_store(&s->tt, h, depth, best, bound_flag(best, alpha, beta), best_move);
    return best;
}

/* Full-window root search; returns the score and sets *best_move. */
static int search_root(search_t *s, const board_t *b, int color, int depth,
                       int *best_move)
{
    uint64_t h = zobrist_hash(b, color);
    bb_t moves = legal_moves(b->me, b->opp);
    s->nodes++;
    if (!moves) {
        *best_move = PASS_MOVE;
        return search_pass(s, b, h, color, depth, -SCORE_INF, SCORE_INF, 0, 0);
    }
    const tt_entry_t *e = tt_probe(&s->tt, h);
    movelist_t ml;
    movelist_build(&ml, moves);
    movelist_score(&ml, &s->ord, 0, color, e ? e->move : NO_MOVE);
    int best = -SCORE_INF, alpha = -SCORE_INF;
    *best_move = NO_MOVE;
    for (int i = 0; i < ml.n; i++) {
        int sq = movelist_pick(&ml, i);
        int v = search_child(s, b, h, color, sq, depth, alpha, SCORE_INF, 0, i == 0);
        if (v > best) {
            best = v;
            *best_move = sq;
            if (v > alpha)
                alpha = v;
        }
    }
    tt_store(&s->tt, h, depth, best, TT_EXACT, *best_move);
    return best;
}

void search_iterative(search_t *s, const board_t *b, int color, int max_depth,
                      result_t *res)
{
    uint64_t start = s->nodes;
    res->best_move = NO_MOVE;
    for (int d = 1; d <= max_depth && d < MAX_PLY; d++) {
        s->tt.age++;
        res->score = search_root(s, b, color, d, &res->best_move);
        res->iter_score[d] = res->score;
        res->depth = d;
        order_age(&s->ord);
    }
    res->nodes = s->nodes - start;
}
