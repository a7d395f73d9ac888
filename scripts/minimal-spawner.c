/* The minimal spawner: the least a process can do to time another one, written independently of
 * thaw's spawner so that scripts/bench-harness.sh can compare thaw's `noop` wall with it (and with
 * hyperfine -N). For each of N runs: read CLOCK_MONOTONIC, posix_spawn the command (no shell,
 * the environment given with -e, stdin from /dev/null), wait4 for it, read CLOCK_MONOTONIC again;
 * print the median of the N differences in nanoseconds. Nothing else happens between the two
 * clock reads.
 *
 *   minimal-spawner [-n RUNS] [-w WARMUP] [-o FILE|null] [-g] [-e K=V]... -- PROGRAM ARG...
 *
 *   -o FILE   the child's stdout and stderr go to FILE (truncated before each run), as thaw's
 *             capture files; the default is /dev/null, as hyperfine's
 *   -g        the child gets a process group of its own (POSIX_SPAWN_SETPGROUP), as thaw's
 *   -e K=V    one variable of the child's environment (none by default)
 *
 * Build: cc -O2 -o minimal-spawner scripts/minimal-spawner.c
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  long long x = *(const long long *)a, y = *(const long long *)b;
  return (x > y) - (x < y);
}

static void usage(void) {
  fprintf(stderr, "usage: minimal-spawner [-n RUNS] [-w WARMUP] [-o FILE|null] [-g] [-e K=V]... "
                  "-- PROGRAM ARG...\n");
  exit(2);
}

int main(int argc, char **argv) {
  long runs = 200, warmup = 5;
  const char *out = "/dev/null";
  int pgroup = 0;
  char *env[64];
  int nenv = 0;
  int i = 1;
  for (; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0) {
      i++;
      break;
    } else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
      runs = strtol(argv[++i], NULL, 10);
    } else if (strcmp(argv[i], "-w") == 0 && i + 1 < argc) {
      warmup = strtol(argv[++i], NULL, 10);
    } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
      out = argv[++i];
      if (strcmp(out, "null") == 0) out = "/dev/null";
    } else if (strcmp(argv[i], "-g") == 0) {
      pgroup = 1;
    } else if (strcmp(argv[i], "-e") == 0 && i + 1 < argc && nenv < 63) {
      env[nenv++] = argv[++i];
    } else {
      usage();
    }
  }
  env[nenv] = NULL;
  if (i >= argc || runs < 1 || warmup < 0) usage();
  char **child_argv = &argv[i];

  long long *walls = malloc(sizeof(long long) * (size_t)runs);
  if (!walls) return 1;
  for (long r = -warmup; r < runs; r++) {
    /* The output file is opened (and truncated) outside the timing, as thaw's capture files. */
    int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
      perror(out);
      return 1;
    }
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, fd, 1);
    posix_spawn_file_actions_adddup2(&actions, fd, 2);
    posix_spawnattr_init(&attr);
    if (pgroup) {
      posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
      posix_spawnattr_setpgroup(&attr, 0);
    }
    pid_t pid;
    int status;
    struct rusage usage;
    long long start = now_ns();
    int e = posix_spawn(&pid, child_argv[0], &actions, &attr, child_argv, env);
    if (e == 0 && wait4(pid, &status, 0, &usage) < 0) e = -1;
    long long end = now_ns();
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    close(fd);
    if (e != 0) {
      fprintf(stderr, "minimal-spawner: cannot run %s (%s)\n", child_argv[0],
                      e > 0 ? strerror(e) : "wait4 failed");
      return 1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      fprintf(stderr, "minimal-spawner: %s failed (status %d)\n", child_argv[0], status);
      return 1;
    }
    if (r >= 0) walls[r] = end - start;
  }
  qsort(walls, (size_t)runs, sizeof(long long), by_value);
  long long median = runs % 2 ? walls[runs / 2] : (walls[runs / 2 - 1] + walls[runs / 2]) / 2;
  printf("%lld\n", median);
  free(walls);
  return 0;
}
