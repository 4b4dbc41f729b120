/*
 * hello.c - differential test: the smallest program; returns 0 from main.
 * The first thing to get working in a new simulator.
 */
#include <stdio.h>

int main(void)
{
    printf("hello, world\n");
    return 0;
}
