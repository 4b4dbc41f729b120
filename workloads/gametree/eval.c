/*
 * eval.c - static evaluation for midgame leaves, from the side to move:
 * square weights, mobility, potential mobility (frontier discs), corner
 * ownership and X-square danger next to empty corners; integer only.
 */
#include "othello.h"

static const int16_t square_weight[64] = {
    100, -20, 10,  5,  5, 10, -20, 100,
    -20, -50, -2, -2, -2, -2, -50, -20,
     10,  -2,  1,  1,  1,  1,  -2,  10,
      5,  -2,  1,  0,  0,  1,  -2,   5,
      5,  -2,  1,  0,  0,  1,  -2,   5,
     10,  -2,  1,  1,  1,  1,  -2,  10,
    -20, -50, -2, -2, -2, -2, -50, -20,
    100, -20, 10,  5,  5, 10, -20, 100,
};

#define CORNERS 0x8100000000000081ull
#define NOT_A 0xFEFEFEFEFEFEFEFEull
#define NOT_H 0x7F7F7F7F7F7F7F7Full

static int weighted_sum(bb_t x)
{
    int s = 0;
    while (x) {
        s += square_weight[first_square(x)];
        x &= x - 1;
    }
    return s;
}

/* Empty squares adjacent to any disc of `discs`. */
static bb_t neighbours(bb_t discs, bb_t empty)
{
    bb_t n = (discs << 8) | (discs >> 8);
    n |= ((discs << 1) | (discs << 9) | (discs >> 7)) & NOT_A;
    n |= ((discs >> 1) | (discs >> 9) | (discs << 7)) & NOT_H;
    return n & empty;
}

/* Discs of `discs` touching an empty square (frontier discs). */
static int frontier(bb_t discs, bb_t empty)
{
    return popcount(neighbours(empty, discs));
}

static int corner_term(bb_t me, bb_t opp)
{
    static const int corner[4] = { 0, 7, 56, 63 };
    static const int xsq[4] = { 9, 14, 49, 54 };
    int s = 25 * (popcount(me & CORNERS) - popcount(opp & CORNERS));
    bb_t empty = ~(me | opp);
    for (int i = 0; i < 4; i++) {
        if (!(empty >> corner[i] & 1))
            continue;
        if (me >> xsq[i] & 1)
            s -= 12;
        if (opp >> xsq[i] & 1)
            s += 12;
    }
    return s;
}

int evaluate(const board_t *b)
{
    bb_t empty = ~(b->me | b->opp);
    int my_mob = popcount(legal_moves(b->me, b->opp));
    int op_mob = popcount(legal_moves(b->opp, b->me));
    int score = weighted_sum(b->me) - weighted_sum(b->opp);
    score += 8 * (my_mob - op_mob);
    score += 3 * (popcount(neighbours(b->opp, empty)) - popcount(neighbours(b->me, empty)));
    score -= 4 * (frontier(b->me, empty) - frontier(b->opp, empty));
    score += corner_term(b->me, b->opp);
    return score;
}
