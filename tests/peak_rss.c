/* peak_rss.c - run a command and print its peak resident set size in KiB (wait4's ru_maxrss).
 * A small C parent keeps the figure the command's own: a child forked from a large process
 * (Python) inherits that process's high-water mark across exec.
 * Usage: peak_rss COMMAND [ARG]...; prints "peak_rss_kib N exit E" on stderr, exits with E. */
#define _DEFAULT_SOURCE /* wait4 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: peak_rss COMMAND [ARG]...\n");
        return 64;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("peak_rss: fork");
        return 71;
    }
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        perror("peak_rss: exec");
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid) {
        perror("peak_rss: wait4");
        return 71;
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    fprintf(stderr, "peak_rss_kib %ld exit %d\n", ru.ru_maxrss, code);
    return code;
}
