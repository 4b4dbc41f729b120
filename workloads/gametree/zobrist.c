/*
 * zobrist.c - Zobrist keys for the transposition table.  Hashes are kept
 * in absolute colours (black/white keys per square plus a side-to-move
 * key) and updated incrementally: a move toggles the placed disc, every
 * flipped disc (via a combined black^white key) and the side key.
 */
#include "othello.h"

static uint64_t key_sq[2][64], key_flip[64];
static uint64_t key_side;

void zobrist_init(uint64_t seed)
{
    prng_t r;
    prng_seed(&r, seed);
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < 64; i++)
            key_sq[c][i] = prng_next(&r);
    for (int i = 0; i < 64; i++)
        key_flip[i] = key_sq[0][i] ^ key_sq[1][i];
    key_side = prng_next(&r);
}

static uint64_t keys_of(bb_t x, const uint64_t *keys)
{
    uint64_t h = 0;
    while (x) {
        h ^= keys[first_square(x)];
        x &= x - 1;
    }
    return h;
}

uint64_t zobrist_hash(const board_t *b, int color)
{
    uint64_t h = keys_of(b->me, key_sq[color]) ^ keys_of(b->opp, key_sq[color ^ 1]);
    return color ? h ^ key_side : h;
}

uint64_t zobrist_after_move(uint64_t h, int color, int sq, bb_t flips)
{
    return h ^ key_sq[color][sq] ^ keys_of(flips, key_flip) ^ key_side;
}

uint64_t zobrist_after_pass(uint64_t h)
{
    return h ^ key_side;
}
