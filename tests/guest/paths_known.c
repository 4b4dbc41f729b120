/*
 * paths_known.c - a guest whose Ball-Larus path counts are known by hand
 * (tests/paths/run.sh checks them in hps-sim --paths' TSV): if/else chains,
 * a loop with an if/else body, a switch through a jump table, early
 * returns, recursion, setjmp/longjmp.  Each function is noipa so it keeps
 * its name and shape, and its branches call a sink so the compiler keeps
 * them as branches.  Expected counts (per function, as a multiset):
 *   diamonds   i in [0,30): divisible by 2/3/5 combinations: 1 1 2 2 4 4 8 8
 *   pick       a switch of 6 cases through a jump table and a default, case
 *              c taken c+1 times, the default 7 times: the indirect jump
 *              ends a path (21 times) and each landing starts one, as
 *              hps-sim numbers switches (include/paths.h): 1 2 3 4 5 6 7 21
 *   early      i in [0,40): three early returns and the fall-through
 *              (i%8==0: 5, i%8==1: 5, i%4==2: 10, the rest 20): 5 5 10 20
 *   rec        rec(9) once: 9 calls recursing, 1 base case: 1 9
 *   loop_ifelse  30 iterations, 10 through the then-arm: the entry path
 *              (first iteration), 9 then-paths, 19 else-paths, the exit
 *              path (last iteration): 1 1 9 19
 *   thrower    returns normally 3 times (a path taken 3 times); longjmps out
 *              3 times (those paths never end at a return)
 */
#include <setjmp.h>
#include <stdio.h>

static volatile unsigned sink_v;

__attribute__((noipa)) static void sink(unsigned x) { sink_v += x; }

__attribute__((noipa)) static void diamonds(unsigned i)
{
    if (i % 2 == 0) sink(1);
    else sink(2);
    if (i % 3 == 0) sink(3);
    else sink(4);
    if (i % 5 == 0) sink(5);
    else sink(6);
}

__attribute__((noipa)) static unsigned pick(unsigned k)
{
    switch (k) {
    case 0: sink(10); return 3;
    case 1: sink(11); return 5;
    case 2: sink(12); return 7;
    case 3: sink(13); return 11;
    case 4: sink(14); return 13;
    case 5: sink(15); return 17;
    default: sink(16); return 19;
    }
}

__attribute__((noipa)) static unsigned early(unsigned i)
{
    if (i % 8 == 0) return sink(20), 1;
    if (i % 8 == 1) return sink(21), 2;
    if (i % 4 == 2) return sink(22), 3;
    sink(23);
    return 4;
}

__attribute__((noipa)) static unsigned rec(unsigned n)
{
    if (n == 0) {
        sink(30);
        return 1;
    }
    unsigned a = rec(n - 1);
    sink(a);
    return a + 1;
}

__attribute__((noipa)) static unsigned loop_ifelse(unsigned n)
{
    unsigned s = 0;
    for (unsigned i = 0; i < n; i++) {
        if (i % 3 == 0) sink(40);
        else s += i;
    }
    return s;
}

static jmp_buf env;

__attribute__((noipa)) static void thrower(unsigned i)
{
    sink(50);
    if (i & 1) longjmp(env, (int)i);
    sink(51);
}

__attribute__((noipa)) static unsigned jumper(void)
{
    unsigned caught = 0;
    for (volatile unsigned i = 0; i < 6; i++) {
        if (setjmp(env)) {
            caught++;
            continue;
        }
        thrower(i);
    }
    return caught;
}

int main(void)
{
    for (unsigned i = 0; i < 30; i++) diamonds(i);
    unsigned picked = 0;
    for (unsigned c = 0; c < 7; c++)
        for (unsigned t = 0; t <= c; t++) picked += pick(c < 6 ? c : 6 + t);
    unsigned ret = 0;
    for (unsigned i = 0; i < 40; i++) ret += early(i);
    unsigned r = rec(9);
    unsigned s = loop_ifelse(30);
    unsigned caught = jumper();
    printf("picked %u early %u rec %u loop %u caught %u sink %u\n", picked, ret, r, s, caught,
           sink_v);
    return 0;
}
