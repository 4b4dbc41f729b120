/*
 * board.c - Othello bitboard primitives: population count, directional
 * shifts with edge masks, legal move generation (dumb7fill style), flip
 * computation, making moves and passes, and final scoring.
 */
#include "othello.h"

#define NOT_A 0xFEFEFEFEFEFEFEFEull   /* clears column 0 */
#define NOT_H 0x7F7F7F7F7F7F7F7Full   /* clears column 7 */

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

/* Shift every disc one step in direction d (0..7), dropping wrap-arounds. */
static bb_t shift_dir(bb_t x, int d)
{
    switch (d) {
    case 0: return (x << 1) & NOT_A;    /* east */
    case 1: return (x >> 1) & NOT_H;    /* west */
    case 2: return x << 8;              /* south */
    case 3: return x >> 8;              /* north */
    case 4: return (x << 9) & NOT_A;    /* south-east */
    case 5: return (x << 7) & NOT_H;    /* south-west */
    case 6: return (x >> 7) & NOT_A;    /* north-east */
    default: return (x >> 9) & NOT_H;   /* north-west */
    }
}

bb_t legal_moves(bb_t me, bb_t opp)
{
    bb_t empty = ~(me | opp), moves = 0;
    for (int d = 0; d < 8; d++) {
        bb_t t = shift_dir(me, d) & opp;
        t |= shift_dir(t, d) & opp;
        t |= shift_dir(t, d) & opp;
        t |= shift_dir(t, d) & opp;
        t |= shift_dir(t, d) & opp;
        t |= shift_dir(t, d) & opp;
        moves |= shift_dir(t, d) & empty;
    }
    return moves;
}

bb_t flips_for(bb_t me, bb_t opp, int sq)
{
    bb_t flips = 0, from = 1ull << sq;
    for (int d = 0; d < 8; d++) {
        bb_t line = 0, x = shift_dir(from, d);
        while (x & opp) {
            line |= x;
            x = shift_dir(x, d);
        }
        if (x & me)
            flips |= line;
    }
    return flips;
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
