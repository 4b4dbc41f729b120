/*
 * order.c - move ordering for the search: move lists with sort keys built
 * from the transposition-table move, two killer moves per ply, a history
 * table per colour and a static square preference; selection picking.
 */
#include <string.h>
#include "othello.h"

static const int8_t square_pref[64] = {
    9, 1, 6, 5, 5, 6, 1, 9,
    1, 0, 3, 3, 3, 3, 0, 1,
    6, 3, 4, 4, 4, 4, 3, 6,
    5, 3, 4, 2, 2, 4, 3, 5,
    5, 3, 4, 2, 2, 4, 3, 5,
    6, 3, 4, 4, 4, 4, 3, 6,
    1, 0, 3, 3, 3, 3, 0, 1,
    9, 1, 6, 5, 5, 6, 1, 9,
};

void order_clear(order_t *o)
{
    memset(o->killer, NO_MOVE, sizeof(o->killer));
    memset(o->history, 0, sizeof(o->history));
}

/* Halve history scores between searches so old information fades. */
void order_age(order_t *o)
{
    for (int c = 0; c < 2; c++)
        for (int s = 0; s < 64; s++)
            o->history[c][s] /= 2;
}

void movelist_build(movelist_t *ml, bb_t moves)
{
    ml->n = 0;
    while (moves) {
        ml->sq[ml->n] = (uint8_t)first_square(moves);
        ml->key[ml->n] = 0;
        ml->n++;
        moves &= moves - 1;
    }
}

void movelist_score(movelist_t *ml, const order_t *o, int ply, int color,
                    int tt_move)
{
    for (int i = 0; i < ml->n; i++) {
        int sq = ml->sq[i];
        int32_t k = square_pref[sq] * 64 + o->history[color][sq] / 16;
        if (sq == tt_move)
            k += 1 << 28;
        else if (ply < MAX_PLY && sq == o->killer[ply][0])
            k += 1 << 26;
        else if (ply < MAX_PLY && sq == o->killer[ply][1])
            k += 1 << 25;
        ml->key[i] = k;
    }
}

/* Bring the best remaining move to position i and return it. */
int movelist_pick(movelist_t *ml, int i)
{
    int best = i;
    for (int j = i + 1; j < ml->n; j++)
        if (ml->key[j] > ml->key[best] ||
            (ml->key[j] == ml->key[best] && ml->sq[j] < ml->sq[best]))
            best = j;
    if (best != i) {
        uint8_t s = ml->sq[i];
        int32_t k = ml->key[i];
        ml->sq[i] = ml->sq[best];
        ml->key[i] = ml->key[best];
        ml->sq[best] = s;
        ml->key[best] = k;
    }
    return ml->sq[i];
}

void order_reward(order_t *o, int ply, int color, int sq, int depth)
{
    if (ply < MAX_PLY && o->killer[ply][0] != sq) {
        o->killer[ply][1] = o->killer[ply][0];
        o->killer[ply][0] = (uint8_t)sq;
    }
    int32_t h = o->history[color][sq] + depth * depth;
    o->history[color][sq] = h > (1 << 20) ? h / 2 : h;
}
