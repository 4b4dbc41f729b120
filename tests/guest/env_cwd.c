/*
 * env_cwd.c - the environment and working directory a program starts with:
 * prints every environment variable, sorted (qemu-user hands a guest its
 * environment in reverse order, Linux in the given one), and getcwd(); given a
 * directory argument, changes to it, prints getcwd() again and writes
 * env_cwd.out there through a relative path.  The differential tests run it
 * under qemu and hps-sim --env-host with the same environment; the newcomer
 * tests (tests/newcomer) use it for --env, --cwd and the empty default.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void print_cwd(void)
{
    char buf[4096];
    printf("cwd=%s\n", getcwd(buf, sizeof buf) ? buf : "(error)");
}

int main(int argc, char **argv, char **envp)
{
    int n = 0;
    while (envp[n]) n++;
    qsort(envp, (size_t)n, sizeof *envp, by_text);
    for (int k = 0; k < n; k++) printf("env[%d]=%s\n", k, envp[k]);
    printf("envc=%d\n", n);
    print_cwd();
    if (argc > 1) {
        printf("chdir=%d\n", chdir(argv[1]));
        print_cwd();
        FILE *f = fopen("env_cwd.out", "w");
        if (!f) return 1;
        fputs("written by env_cwd\n", f);
        fclose(f);
        puts("wrote env_cwd.out");
    }
    return 0;
}
