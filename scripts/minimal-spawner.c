/* The minimal spawner: the least a process can do to time another one, written independently of
 * thaw's spawner so that scripts/bench-harness.sh can compare thaw's `noop` wall with it (and with
 * hyperfine -N). For each of N runs: read CLOCK_MONOTONIC, posix_spawn the command (no shell,
 * the environment given with -e, stdin from /dev/null), wait4 for it, read CLOCK_MONOTONIC again;
 * print the median of the N differences in nanoseconds. With no option nothing else happens
 * between the two clock reads.
 *
 * Each other option adds one step that thaw's spawner takes (crates/spawner/src/process.rs and
 * lib.rs), so that a ladder of them names every microsecond between this and thaw's wall:
 *
 *   minimal-spawner [-n RUNS] [-w WARMUP] [-o FILE|null|memfd] [-g] [-p] [-r] [-s] [-m|-M PARTS] [-l]
 *                   [-t FILE] [-e K=V]... -- PROGRAM ARG...
 *
 *   -o FILE   the child's stdout and stderr go to FILE (truncated before each run, outside the
 *             timing); the default is /dev/null, as hyperfine's
 *   -o memfd  they go to two anonymous in-memory files, as thaw's capture files (capture.rs): the
 *             child gets its own copies (dup), closed by the spawner inside the timing as thaw's
 *             `drop(command)` does; emptied (ftruncate, lseek) after each run, outside it
 *   -g        the child gets a process group of its own (POSIX_SPAWN_SETPGROUP), as thaw's
 *   -p        the wait as thaw's: pidfd_open on the child, poll on the pidfd until it ends, then
 *             wait4 (instead of wait4 alone); the pidfd is closed after the clock
 *   -r        the rest of Rust std's `Command::spawn` (posix_spawn path, as strace shows it) inside
 *             the timing: the environment copied into a fresh array of fresh strings, /dev/null
 *             opened by the parent (and passed with dup2, closed after the spawn), the signal mask
 *             emptied and SIGPIPE reset to default in the child (POSIX_SPAWN_SETSIGMASK|SETSIGDEF)
 *   -s        the runs are done by a second process (the "spawner"), which the first (the
 *             "runner") asks for each run over a pipe and waits for with poll on the reply pipe,
 *             as thaw's runner and spawner do (lib.rs): three processes where there were two. The
 *             clock is still read in the spawning process, around spawn..wait4; the spawner
 *             replies with the difference after reaping
 *   -m        with -s, the spawner process set up and cleaned up after as thaw's (lib.rs): its
 *             RLIMIT_DATA soft and hard at 8192 MiB (`cold run`'s default --memory-limit, which
 *             every child inherits), child subreaper, a parent-death signal; and after each run,
 *             outside the timing and before the reply, the child's group killed, the processes
 *             below the spawner read from /proc/self/task/<tid>/children and orphans reaped
 *   -M PARTS  with -s, only some of -m's parts: any of l (the limit), r (subreaper), d (the
 *             parent-death signal), c (the cleanup after each run); -m is -M lrdc
 *   -l        the ladder, interleaved: for each sample, one run of each rung (none; -g; -g -o
 *             memfd; then -p, -r, -s and -m added one by one), in an order shuffled for every
 *             sample, so that a drift of the machine's speed and the order reach every rung
 *             alike; prints each rung's median, one a line
 *             (the other options but -n, -w and -e are ignored)
 *   -e K=V    one variable of the child's environment (none by default)
 *   -t FILE   with -o memfd (not -l), after each run and outside the timing, one line appended
 *             to FILE: the two clock reads around the run, then the first line the child wrote to
 *             its stdout (thaw's children write their stamps there, read on the same clock), so
 *             that scripts/harness-phases.py can split this wall into the child's phases as
 *             thaw's samples.csv does
 *
 * Build: cc -O2 -o minimal-spawner scripts/minimal-spawner.c
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct options {
  const char *out; /* a file, /dev/null, or "memfd" */
  int pgroup, pidfd, rustlike;
  const char *spawner_setup; /* -m's parts (l, r, d, c), or NULL */
  char **env, **argv;
};

/* The pid of the last child one_run started (for -m's cleanup of its group). */
static pid_t last_pid;

/* -t: the file the runs are traced to, and the last run's two clock reads. */
static FILE *trace;
static long long last_start, last_end;

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
  fprintf(stderr, "usage: minimal-spawner [-n RUNS] [-w WARMUP] [-o FILE|null|memfd] [-g] [-p] [-r] "
                  "[-s] [-m|-M PARTS] [-l] [-t FILE] [-e K=V]... -- PROGRAM ARG...\n");
  exit(2);
}

static void die(const char *what) {
  perror(what);
  exit(1);
}

/* -r: a fresh copy of the environment, as std's spawn builds one (freed after the clock). */
static char **copy_env(char **env) {
  int n = 0;
  while (env[n]) n++;
  char **copy = malloc(sizeof(char *) * (size_t)(n + 1));
  if (!copy) die("malloc");
  for (int k = 0; k < n; k++)
    if (!(copy[k] = strdup(env[k]))) die("strdup");
  copy[n] = NULL;
  return copy;
}

static void free_env(char **env) {
  for (int k = 0; env[k]; k++) free(env[k]);
  free(env);
}

/* One timed run: the child's wall in ns, spawn..wait4. `out`/`err` are the fds the child's
 * stdout and stderr go to; `own_copies` says the spawner closes them inside the timing (memfd).
 * Exits on any failure: a broken reference is no reference. */
static long long one_run(const struct options *o, int out, int err, int own_copies) {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attr);
  short flags = 0;
  if (o->pgroup) {
    flags |= POSIX_SPAWN_SETPGROUP;
    posix_spawnattr_setpgroup(&attr, 0);
  }
  pid_t pid;
  int status, e = 0, devnull = -1, pidfd = -1;
  struct rusage usage;
  char **env = o->env;

  long long start = now_ns();
  if (o->rustlike) {
    env = copy_env(o->env);
    devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull < 0) die("/dev/null");
    posix_spawn_file_actions_adddup2(&actions, devnull, 0);
    sigset_t none, pipe;
    sigemptyset(&none);
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &pipe);
    flags |= POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  } else {
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  }
  posix_spawn_file_actions_adddup2(&actions, out, 1);
  posix_spawn_file_actions_adddup2(&actions, err, 2);
  posix_spawnattr_setflags(&attr, flags);
  e = posix_spawn(&pid, o->argv[0], &actions, &attr, o->argv, env);
  last_pid = pid;
  if (devnull >= 0) close(devnull);
  if (own_copies) {
    close(out);
    close(err);
  }
  if (e == 0 && o->pidfd) {
    pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (pidfd < 0) die("pidfd_open");
    struct pollfd p = {.fd = pidfd, .events = POLLIN};
    while (poll(&p, 1, 60000) == 0) {
    }
  }
  if (e == 0 && wait4(pid, &status, 0, &usage) < 0) e = -1;
  long long end = now_ns();
  last_start = start;
  last_end = end;

  if (pidfd >= 0) close(pidfd);
  if (env != o->env) free_env(env);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (e != 0) {
    fprintf(stderr, "minimal-spawner: cannot run %s (%s)\n", o->argv[0],
            e > 0 ? strerror(e) : "wait4 failed");
    exit(1);
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "minimal-spawner: %s failed (status %d)\n", o->argv[0], status);
    exit(1);
  }
  return end - start;
}

/* The capture files of -o memfd, made once and emptied after each run, as thaw's. */
static int memfds[2] = {-1, -1};

/* One run with its output set up and cleared outside the timing. */
static long long one_sample(const struct options *o) {
  if (strcmp(o->out, "memfd") == 0) {
    if (memfds[0] < 0) {
      memfds[0] = memfd_create("minimal-stdout", MFD_CLOEXEC);
      memfds[1] = memfd_create("minimal-stderr", MFD_CLOEXEC);
      if (memfds[0] < 0 || memfds[1] < 0) die("memfd_create");
    }
    int out = fcntl(memfds[0], F_DUPFD_CLOEXEC, 3), err = fcntl(memfds[1], F_DUPFD_CLOEXEC, 3);
    if (out < 0 || err < 0) die("dup");
    long long wall = one_run(o, out, err, 1);
    if (trace) {
      char line[4096];
      ssize_t n = pread(memfds[0], line, sizeof line - 1, 0);
      if (n < 0) die("trace: reading the child's stdout");
      line[n] = 0;
      line[strcspn(line, "\n")] = 0;
      fprintf(trace, "%lld %lld %s\n", last_start, last_end, line);
      fflush(trace);
    }
    for (int k = 0; k < 2; k++)
      if (ftruncate(memfds[k], 0) != 0 || lseek(memfds[k], 0, SEEK_SET) < 0) die("memfd");
    return wall;
  }
  /* A file is opened (and truncated) outside the timing, as thaw's capture files are made. */
  int fd = open(o->out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) die(o->out);
  long long wall = one_run(o, fd, fd, 0);
  close(fd);
  return wall;
}

/* -m: the spawner process's own settings, as thaw's spawner makes them at its start. */
static void spawner_setup(const char *parts) {
  struct rlimit data = {8192ULL << 20, 8192ULL << 20};
  if (strchr(parts, 'l') && setrlimit(RLIMIT_DATA, &data) != 0) die("setrlimit");
  if (strchr(parts, 'r') && prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) die("prctl subreaper");
  if (strchr(parts, 'd') && prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0) != 0) die("prctl pdeathsig");
}

/* -m: after each run, outside the timing, what thaw's spawner does before it replies: the
 * child's group killed, the processes below the spawner read from /proc (none here), orphans
 * reaped. */
static void spawner_cleanup(void) {
  kill(-last_pid, SIGKILL);
  DIR *tasks = opendir("/proc/self/task");
  if (tasks) {
    struct dirent *t;
    char path[300], buf[256];
    while ((t = readdir(tasks))) {
      if (t->d_name[0] == '.') continue;
      snprintf(path, sizeof path, "/proc/self/task/%s/children", t->d_name);
      int fd = open(path, O_RDONLY | O_CLOEXEC);
      if (fd >= 0) {
        while (read(fd, buf, sizeof buf) > 0) {
        }
        close(fd);
      }
    }
    closedir(tasks);
  }
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

/* -s, the spawner's side: one run per request byte, the wall written back; ends at EOF. */
static void serve(const struct options *o, int requests, int replies) {
  char byte;
  if (o->spawner_setup) spawner_setup(o->spawner_setup);
  while (read(requests, &byte, 1) == 1) {
    long long wall = one_sample(o);
    if (o->spawner_setup && strchr(o->spawner_setup, 'c')) spawner_cleanup();
    if (write(replies, &wall, sizeof wall) != (ssize_t)sizeof wall) die("reply");
  }
  exit(0);
}

/* -s, the runner's side: a spawner process (forked, serving `o`) and its two pipes. */
struct spawner {
  pid_t pid;
  int ask, answer;
};

static struct spawner start_spawner(const struct options *o) {
  int ask[2], answer[2];
  if (pipe2(ask, O_CLOEXEC) != 0 || pipe2(answer, O_CLOEXEC) != 0) die("pipe");
  pid_t pid = fork();
  if (pid < 0) die("fork");
  if (pid == 0) {
    /* only its own two ends: another spawner's ends held open here would keep that one from
     * ever reading the end of its requests */
    for (int fd = 3; fd < 1024; fd++)
      if (fd != ask[0] && fd != answer[1] && !(trace && fd == fileno(trace))) close(fd);
    memfds[0] = memfds[1] = -1; /* closed above, if the first process had made them */
    serve(o, ask[0], answer[1]);
  }
  close(ask[0]);
  close(answer[1]);
  return (struct spawner){pid, ask[1], answer[0]};
}

/* One run asked of the spawner: the request, a wait in poll for the reply, the reply. */
static long long ask_spawner(const struct spawner *s) {
  long long wall;
  struct pollfd p = {.fd = s->answer, .events = POLLIN};
  if (write(s->ask, "x", 1) != 1) die("request");
  while (poll(&p, 1, 100) == 0) {
  }
  if (read(s->answer, &wall, sizeof wall) != (ssize_t)sizeof wall) {
    fprintf(stderr, "minimal-spawner: the spawner process failed\n");
    exit(1);
  }
  return wall;
}

static void stop_spawner(const struct spawner *s) {
  int status;
  close(s->ask);
  close(s->answer);
  waitpid(s->pid, &status, 0);
}

/* -l: the rungs of the ladder, each thaw's step on top of the one before; the last two are done
 * by spawner processes (-s, then -s -m). */
#define RUNGS 7

/* -l's order of rungs within a sample: xorshift64, seeded, so that every run is the same. */
static unsigned long long shuffle_state = 0x9e3779b97f4a7c15ULL;

static unsigned long long next_random(void) {
  shuffle_state ^= shuffle_state << 13;
  shuffle_state ^= shuffle_state >> 7;
  shuffle_state ^= shuffle_state << 17;
  return shuffle_state;
}

/* -l: one run of each rung, for each sample, in an order shuffled afresh for every sample (a
 * fixed order gives each rung a fixed neighbour before it: the first rung after a spawner
 * process's reply, or the last, read tens of microseconds off on a 2-CPU virtual machine), so
 * that a drift of the machine's speed and the order both reach every rung alike; prints each
 * rung's median, one a line. */
static void ladder(const struct options *base, long warmup, long runs) {
  struct options rung[RUNGS];
  for (int k = 0; k < RUNGS; k++) {
    rung[k] = *base;
    rung[k].out = k >= 2 ? "memfd" : "/dev/null";
    rung[k].pgroup = k >= 1;
    rung[k].pidfd = k >= 3;
    rung[k].rustlike = k >= 4;
    rung[k].spawner_setup = k >= 6 ? "lrdc" : NULL;
  }
  struct spawner s = start_spawner(&rung[5]);     /* -s */
  struct spawner s_m = start_spawner(&rung[6]);   /* -s -m */
  long long *walls = malloc(sizeof(long long) * (size_t)(runs * RUNGS));
  if (!walls) die("malloc");
  int order[RUNGS];
  for (int k = 0; k < RUNGS; k++) order[k] = k;
  for (long r = -warmup; r < runs; r++) {
    for (int k = RUNGS - 1; k > 0; k--) {
      int j = (int)(next_random() % (unsigned long long)(k + 1)), t = order[k];
      order[k] = order[j];
      order[j] = t;
    }
    for (int i = 0; i < RUNGS; i++) {
      int k = order[i];
      long long wall = k == 6 ? ask_spawner(&s_m) : k == 5 ? ask_spawner(&s) : one_sample(&rung[k]);
      if (r >= 0) walls[k * runs + r] = wall;
    }
  }
  stop_spawner(&s);
  stop_spawner(&s_m);
  for (int k = 0; k < RUNGS; k++) {
    long long *w = walls + k * runs;
    qsort(w, (size_t)runs, sizeof(long long), by_value);
    printf("%lld\n", runs % 2 ? w[runs / 2] : (w[runs / 2 - 1] + w[runs / 2]) / 2);
  }
  free(walls);
}

int main(int argc, char **argv) {
  long runs = 200, warmup = 5;
  struct options o = {.out = "/dev/null"};
  int separate = 0, interleaved = 0;
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
      o.out = argv[++i];
      if (strcmp(o.out, "null") == 0) o.out = "/dev/null";
    } else if (strcmp(argv[i], "-g") == 0) {
      o.pgroup = 1;
    } else if (strcmp(argv[i], "-p") == 0) {
      o.pidfd = 1;
    } else if (strcmp(argv[i], "-r") == 0) {
      o.rustlike = 1;
    } else if (strcmp(argv[i], "-s") == 0) {
      separate = 1;
    } else if (strcmp(argv[i], "-m") == 0) {
      o.spawner_setup = "lrdc";
    } else if (strcmp(argv[i], "-M") == 0 && i + 1 < argc) {
      o.spawner_setup = argv[++i];
    } else if (strcmp(argv[i], "-l") == 0) {
      interleaved = 1;
    } else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) {
      trace = fopen(argv[++i], "ae"); /* close-on-exec: no child inherits it */
      if (!trace) die(argv[i]);
    } else if (strcmp(argv[i], "-e") == 0 && i + 1 < argc && nenv < 63) {
      env[nenv++] = argv[++i];
    } else {
      usage();
    }
  }
  env[nenv] = NULL;
  if (i >= argc || runs < 1 || warmup < 0 || (o.spawner_setup && !separate && !interleaved) ||
      (trace && (interleaved || strcmp(o.out, "memfd") != 0)))
    usage();
  o.env = env;
  o.argv = &argv[i];

  if (interleaved) {
    ladder(&o, warmup, runs);
    return 0;
  }
  long long *walls = malloc(sizeof(long long) * (size_t)runs);
  if (!walls) return 1;
  if (separate) {
    struct spawner s = start_spawner(&o);
    for (long r = -warmup; r < runs; r++) {
      long long wall = ask_spawner(&s);
      if (r >= 0) walls[r] = wall;
    }
    stop_spawner(&s);
  } else {
    for (long r = -warmup; r < runs; r++) {
      long long wall = one_sample(&o);
      if (r >= 0) walls[r] = wall;
    }
  }
  qsort(walls, (size_t)runs, sizeof(long long), by_value);
  long long median = runs % 2 ? walls[runs / 2] : (walls[runs / 2 - 1] + walls[runs / 2]) / 2;
  printf("%lld\n", median);
  free(walls);
  return 0;
}
