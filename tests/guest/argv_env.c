/*
 * argv_env.c - differential test: the initial process stack.  Prints argc,
 * every argv string (argv_env.args has quoting-sensitive arguments), the
 * HPS_TEST variable the runner sets, and checks argv[argc] == NULL and that
 * envp follows argv.  The full environment is not printed since it may
 * legitimately differ.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv, char **envp)
{
    printf("argc=%d\n", argc);
    for (int i = 1; i < argc; i++) printf("argv[%d]=[%s] len=%zu\n", i, argv[i], strlen(argv[i]));
    printf("argv[argc]==NULL: %d\n", argv[argc] == NULL);
    printf("envp==argv+argc+1: %d\n", envp == argv + argc + 1);
    const char *v = getenv("HPS_TEST");
    printf("HPS_TEST=%s\n", v ? v : "(unset)");
    printf("NOT_SET=%s\n", getenv("HPS_SURELY_NOT_SET") ? "set" : "(unset)");
    int has = 0; for (char **e = envp; *e; e++) if (!strncmp(*e, "HPS_TEST=", 9)) has++;
    printf("HPS_TEST in envp: %d\n", has);
    setenv("HPS_NEW", "added", 1);
    printf("after setenv: %s\n", getenv("HPS_NEW"));
    long sum = 0; for (int i = 1; i < argc; i++) sum += strtol(argv[i], NULL, 0);
    printf("numeric sum=%ld\n", sum);
    return argc - 1 == 8 ? 0 : 1;
}
