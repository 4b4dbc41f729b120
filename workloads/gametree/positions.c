/*
 * positions.c - reproducible test positions: games of random legal moves
 * from the initial position (fixed seed), stopped at a chosen ply for
 * midgame searches or at a chosen number of empty squares for endgames.
 */
#include "othello.h"

/* Play one random move (or pass); returns 0 if the game is over. */
static int random_step(position_t *p, prng_t *r)
{
    bb_t moves = legal_moves(p->b.me, p->b.opp);
    if (!moves) {
        if (!legal_moves(p->b.opp, p->b.me))
            return 0;
        board_pass(&p->b);
        p->color ^= 1;
        return 1;
    }
    int k = (int)prng_below(r, (uint32_t)popcount(moves));
    while (k--)
        moves &= moves - 1;
    int sq = first_square(moves);
    board_play(&p->b, sq, flips_for(p->b.me, p->b.opp, sq));
    p->color ^= 1;
    p->ply++;
    return 1;
}

static void start_position(position_t *p)
{
    board_start(&p->b);
    p->color = 0;
    p->ply = 0;
}

static int playable(const position_t *p)
{
    return legal_moves(p->b.me, p->b.opp) != 0;
}

int make_midgame_positions(position_t *out, int n, uint64_t seed)
{
    prng_t r;
    prng_seed(&r, seed);
    for (int k = 0; k < n; k++) {
        int target = 12 + (k * 7) % 22;
        for (;;) {
            start_position(&out[k]);
            int ok = 1;
            while (ok && out[k].ply < target)
                ok = random_step(&out[k], &r);
            if (ok && playable(&out[k]))
                break;
        }
    }
    return n;
}

int make_endgame_positions(position_t *out, int n, int empties, uint64_t seed)
{
    prng_t r;
    prng_seed(&r, seed);
    for (int k = 0; k < n; k++) {
        for (;;) {
            start_position(&out[k]);
            int ok = 1;
            while (ok && board_empties(&out[k].b) > empties)
                ok = random_step(&out[k], &r);
            if (ok && playable(&out[k]))
                break;
        }
    }
    return n;
}
