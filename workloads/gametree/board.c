/*
 * board.c - Othello bitboard primitives: population count, directional
 * shifts with edge masks, legal move generation (dumb7fill style with masked
 * opponent discs so that no shift wraps between rows), flip
 * computation, making moves and passes, and final scoring.
 */
#include "othello.h"


int popcount(bb_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}

int first_square(bb_t x)
{
    int n = 0;
    if (!(x & 0xFFFFFFFFull)) { n += 32; x >>= 32; }
    if (!(x & 0xFFFFull)) { n += 16; x >>= 16; }
    if (!(x & 0xFFull)) { n += 8; x >>= 8; }
    if (!(x & 0xFull)) { n += 4; x >>= 4; }
    if (!(x & 0x3ull)) { n += 2; x >>= 2; }
    if (!(x & 0x1ull)) { n += 1; }
    return n;
}

#define INNER 0x7E7E7E7E7E7E7E7Eull    /* columns 1..6 */

static inline bb_t shl(bb_t x, int s) { return x << s; }
static inline bb_t shr(bb_t x, int s) { return x >> s; }

/* Moves for one direction pair (s and -s); om excludes wrapping columns. */
static inline bb_t moves_pair(bb_t me, bb_t om, int s)
{
    bb_t l = om & shl(me, s), r = om & shr(me, s);
    l |= om & shl(l, s);  r |= om & shr(r, s);
    l |= om & shl(l, s);  r |= om & shr(r, s);
    l |= om & shl(l, s);  r |= om & shr(r, s);
    l |= om & shl(l, s);  r |= om & shr(r, s);
    l |= om & shl(l, s);  r |= om & shr(r, s);
    return shl(l, s) | shr(r, s);
}

bb_t legal_moves(bb_t me, bb_t opp)
{
    bb_t inner = opp & INNER;
    bb_t moves = moves_pair(me, inner, 1) | moves_pair(me, opp, 8) |
                 moves_pair(me, inner, 7) | moves_pair(me, inner, 9);
    return moves & ~(me | opp);
}

/* Discs flipped along one ray; an empty run or a missing anchor flips none. */
static inline bb_t ray_left(bb_t me, bb_t om, bb_t from, int s)
{
    bb_t line = 0, x = shl(from, s);
    while (x & om) {
        line |= x;
        x = shl(x, s);
    }
    return (x & me) ? line : 0;
}

static inline bb_t ray_right(bb_t me, bb_t om, bb_t from, int s)
{
    bb_t line = 0, x = shr(from, s);
    while (x & om) {
        line |= x;
        x = shr(x, s);
    }
    return (x & me) ? line : 0;
}

bb_t flips_for(bb_t me, bb_t opp, int sq)
{
    bb_t from = 1ull << sq, inner = opp & INNER;
    return ray_left(me, inner, from, 1) | ray_right(me, inner, from, 1) |
           ray_left(me, opp, from, 8) | ray_right(me, opp, from, 8) |
           ray_left(me, inner, from, 7) | ray_right(me, inner, from, 7) |
           ray_left(me, inner, from, 9) | ray_right(me, inner, from, 9);
}

void board_start(board_t *b)
{
    /* d5/e4 black (to move), d4/e5 white */
    b->me = (1ull << 28) | (1ull << 35);
    b->opp = (1ull << 27) | (1ull << 36);
}

void board_play(board_t *b, int sq, bb_t flips)
{
    bb_t me = b->me | flips | (1ull << sq);
    b->me = b->opp & ~flips;
    b->opp = me;
}

void board_pass(board_t *b)
{
    bb_t t = b->me;
    b->me = b->opp;
    b->opp = t;
}

int board_empties(const board_t *b)
{
    return 64 - popcount(b->me | b->opp);
}

/* Disc difference for the side to move, empties going to the winner. */
int final_score(const board_t *b)
{
    int me = popcount(b->me), opp = popcount(b->opp);
    int empty = 64 - me - opp;
    if (me > opp)
        return me - opp + empty;
    if (opp > me)
        return me - opp - empty;
    return 0;
}

void square_name(int sq, char out[3])
{
    if (sq == PASS_MOVE || sq == NO_MOVE) {
        out[0] = 'p';
        out[1] = 's';
    } else {
        out[0] = (char)('a' + sq % 8);
        out[1] = (char)('1' + sq / 8);
    }
    out[2] = 0;
}
