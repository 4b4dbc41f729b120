/*
 * fork_unsupported.c - guest-fault test: fork().  hps-sim runs one process
 * (its threads, but no children), so glibc's fork, a clone without
 * CLONE_VM, stops the run as an unsupported call, and the report says
 * that fork is not supported, naming the call.
 * EXPECT-STATUS: 159
 * EXPECT-STDERR: unsupported system call 220 \(clone\)
 * EXPECT-STDERR: fork is not supported
 * EXPECT-STDOUT: before fork
 * EXPECT-NOSTDOUT: after fork
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    puts("before fork");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) _exit(0);
    int status;
    waitpid(pid, &status, 0);
    puts("after fork");
    return 0;
}
