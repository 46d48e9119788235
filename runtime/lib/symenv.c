/*
 * symenv.c — the symbolic environment, KLEE's POSIX runtime as its users know it: symbolic
 * command-line arguments, a symbolic stdin, symbolic files A, B, …, and the file
 * descriptors that read them (open, read, lseek, close, stat, fstat; stdio.c's streams
 * read through __symq_fd_getc and seek through __symq_fd_seek).
 *
 * __symq_env_init(argc, argv) runs before main when the run asks for it (engine/exec/
 * symenv.c calls it and hands main the argc/argv it leaves in __symq_env_argc/_argv). It
 * reads argv as KLEE's klee_init_env does, each option replaced by what it stands for, in
 * place among the concrete arguments:
 *   --sym-arg N              one argument of up to N bytes: object "argNN" (N + 1 bytes, the
 *                            last one the terminating NUL), NN counting all symbolic
 *                            arguments from 00
 *   --sym-args MIN MAX N     between MIN and MAX such arguments: object "n_args" (an int,
 *                            klee_range(MIN, MAX + 1)), then one "argNN" per argument
 *   --sym-files COUNT N      files named A, B, … (COUNT of them), each of a symbolic size
 *                            up to N: objects "A-data-stat" (a struct stat whose st_size is
 *                            the size) then "A-data" (the contents, of that size)
 *   --sym-stdin N            stdin of a symbolic size up to N: "stdin-stat", then "stdin"
 * (single-dash spellings too, as KLEE). After the arguments come the files, then stdin, then
 * "model_version" (an int, 1), as in KLEE. Unlike KLEE, a file's size is symbolic (KLEE's is
 * N exactly) — which is why its -stat object comes before its data (the size comes first);
 * only st_size of a -stat object is an input: the other fields are set to a plain regular
 * file's. KLEE's --sym-stdout, --fd-fail, --max-fail and --save-all-writes are not modelled:
 * the path ends as unsupported. A malformed option is an error of kind user (symq run
 * refuses such a command line before it gets here).
 *
 * Files are read-only: opening one for writing fails with EACCES; any other path fails with
 * ENOENT, even to create it, as the rest of the model has no file system (glibc's answer
 * for a path in a directory that does not exist).
 * Without --sym-stdin, stdin is at end of file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "klee/klee.h"
#include "model.h"

/* Defined nowhere: calling one ends the path with "unsupported: external call NAME". */
void __symq_unsupported_sym_stdout(void);
void __symq_unsupported_fd_fail(void);
void __symq_unsupported_save_all_writes(void);
void __symq_unsupported_fstat_of_a_standard_stream(void);

typedef struct sym_file {
  unsigned char *data;
  off_t size; /* st_size of *stat: symbolic */
  struct stat *stat;
} sym_file;

static sym_file files[26], stdin_file;
static unsigned nfiles;
static int have_stdin;

static struct {
  sym_file *file; /* NULL: a standard stream with nothing behind it */
  off_t pos;
  int open;
} fds[SYMQ_MAX_FDS] = {{NULL, 0, 1}, {NULL, 0, 1}, {NULL, 0, 1}};

/* What main gets (read by the engine after __symq_env_init returns). */
int __symq_env_argc;
char **__symq_env_argv;
void __symq_env_init(int argc, char **argv);
/* Kept linked in every program: the engine calls it by name, and a variable is always
 * linked (runtime/refs.h) together with what it refers to. */
void (*const __symq_env_entry)(int, char **) = __symq_env_init;

static void usage_error(const char *message) {
  klee_report_error(__FILE__, __LINE__, message, "user.err");
}

static int same(const char *a, const char *b) {
  while (*a && *a == *b) a++, b++;
  return *a == *b;
}

/* --name or -name */
static int is_option(const char *arg, const char *name) {
  if (arg[0] != '-') return 0;
  return same(arg + 1, name) || (arg[1] == '-' && same(arg + 2, name));
}

/* A decimal number up to 65536, else an error (symq run checks the same before the run:
 * engine/exec/symenv.c). */
static unsigned number(const char *text, const char *what) {
  unsigned v = 0;
  if (!*text) usage_error(what);
  for (; *text; text++) {
    if (*text < '0' || *text > '9') usage_error(what);
    v = v * 10 + (unsigned)(*text - '0');
    if (v > 65536) usage_error(what);
  }
  return v;
}

static unsigned sym_arg_count;

/* A symbolic argument of up to n bytes: n + 1 bytes, the last one NUL (KLEE's). */
static char *sym_arg(unsigned n) {
  char name[] = "arg00";
  name[3] = (char)('0' + sym_arg_count / 10 % 10);
  name[4] = (char)('0' + sym_arg_count % 10);
  sym_arg_count++;
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, name);
  s[n] = 0;
  return s;
}

/* A file of symbolic size up to max: NAME-stat (only st_size an input), then NAME. */
static void sym_contents(sym_file *f, unsigned max, const char *name, const char *stat_name) {
  struct stat *s = malloc(sizeof *s);
  klee_make_symbolic(s, sizeof *s, stat_name);
  off_t size = s->st_size;
  klee_assume((uint64_t)size <= max);
  struct stat plain = {0};
  plain.st_mode = S_IFREG | 0644;
  plain.st_nlink = 1;
  plain.st_blksize = 4096;
  plain.st_size = size;
  plain.st_blocks = (size + 511) / 512;
  *s = plain;
  f->data = malloc((size_t)size);
  klee_make_symbolic(f->data, (size_t)size, name);
  f->size = size;
  f->stat = s;
}

void __symq_env_init(int argc, char **argv) {
  /* room: every concrete argument, every --sym-arg, MAX of every --sym-args */
  size_t room = 1;
  for (int k = 0; k < argc; k++) {
    if (is_option(argv[k], "sym-args") && k + 2 < argc)
      room += number(argv[k + 2], "--sym-args MIN MAX N: bad MAX");
    else
      room++;
  }
  char **out = malloc(room * sizeof *out);
  int n = 0;
  unsigned files_wanted = 0, file_max = 0, stdin_max = 0;
  int stdin_wanted = 0;
  for (int k = 0; k < argc; k++) {
    const char *a = argv[k];
    if (k > 0 && is_option(a, "sym-arg")) {
      if (k + 1 >= argc) usage_error("--sym-arg needs a length N");
      out[n++] = sym_arg(number(argv[++k], "--sym-arg N: bad N"));
    } else if (k > 0 && is_option(a, "sym-args")) {
      if (k + 3 >= argc) usage_error("--sym-args needs MIN MAX N");
      unsigned min = number(argv[k + 1], "--sym-args MIN MAX N: bad MIN");
      unsigned max = number(argv[k + 2], "--sym-args MIN MAX N: bad MAX");
      unsigned len = number(argv[k + 3], "--sym-args MIN MAX N: bad N");
      k += 3;
      if (min > max) usage_error("--sym-args MIN MAX N: MIN is larger than MAX");
      int count = klee_range((int)min, (int)max + 1, "n_args");
      for (int j = 0; j < count; j++) out[n++] = sym_arg(len);
    } else if (k > 0 && is_option(a, "sym-files")) {
      if (k + 2 >= argc) usage_error("--sym-files needs COUNT N");
      files_wanted = number(argv[k + 1], "--sym-files COUNT N: bad COUNT");
      file_max = number(argv[k + 2], "--sym-files COUNT N: bad N");
      if (files_wanted > 26) usage_error("--sym-files: at most 26 files (A to Z)");
      k += 2;
    } else if (k > 0 && is_option(a, "sym-stdin")) {
      if (k + 1 >= argc) usage_error("--sym-stdin needs a size N");
      stdin_max = number(argv[++k], "--sym-stdin N: bad N");
      stdin_wanted = 1;
    } else if (k > 0 && is_option(a, "sym-stdout")) {
      __symq_unsupported_sym_stdout();
    } else if (k > 0 && (is_option(a, "fd-fail") || is_option(a, "max-fail"))) {
      __symq_unsupported_fd_fail();
    } else if (k > 0 && is_option(a, "save-all-writes")) {
      __symq_unsupported_save_all_writes();
    } else {
      out[n++] = argv[k];
    }
  }
  out[n] = NULL;
  for (unsigned k = 0; k < files_wanted; k++) {
    char name[] = "A-data", stat_name[] = "A-data-stat";
    name[0] = stat_name[0] = (char)('A' + k);
    sym_contents(&files[k], file_max, name, stat_name);
  }
  nfiles = files_wanted;
  if (stdin_wanted) {
    sym_contents(&stdin_file, stdin_max, "stdin", "stdin-stat");
    have_stdin = 1;
    fds[0].file = &stdin_file;
  }
  int version;
  klee_make_symbolic(&version, sizeof version, "model_version");
  klee_assume(version == 1);
  __symq_env_argc = n;
  __symq_env_argv = out;
}

/* ---- file descriptors --------------------------------------------------------------------- */

static int valid_fd(int fd) { return fd >= 0 && fd < SYMQ_MAX_FDS && fds[fd].open; }

int __symq_fd_is_open(int fd) { return valid_fd(fd); }

int __symq_fd_getc(int fd) {
  if (!valid_fd(fd) || fd == 1 || fd == 2) {
    errno = EBADF;
    return -2;
  }
  sym_file *f = fds[fd].file;
  if (!f || fds[fd].pos >= f->size) return -1;
  return f->data[fds[fd].pos++];
}

/* The symbolic file a path names: exactly "A", "B", … (KLEE's rule), or NULL. */
static sym_file *file_named(const char *path) {
  if (path == NULL || path[0] < 'A' || path[0] > 'Z' || path[1] != 0) return NULL;
  unsigned k = (unsigned)(path[0] - 'A');
  return k < nfiles ? &files[k] : NULL;
}

int __symq_fd_open(const char *path, int flags) {
  sym_file *f = file_named(path);
  if (!f) {
    errno = ENOENT;
    return -1;
  }
  if ((flags & O_ACCMODE) != O_RDONLY) {
    errno = EACCES;
    return -1;
  }
  for (int fd = 3; fd < SYMQ_MAX_FDS; fd++)
    if (!fds[fd].open) {
      fds[fd].file = f;
      fds[fd].pos = 0;
      fds[fd].open = 1;
      return fd;
    }
  errno = EMFILE;
  return -1;
}

int __symq_fd_close(int fd) {
  if (!valid_fd(fd)) {
    errno = EBADF;
    return -1;
  }
  if (fd >= 3) fds[fd].open = 0;
  return 0;
}

off_t __symq_fd_seek(int fd, off_t offset, int whence) {
  if (!valid_fd(fd)) {
    errno = EBADF;
    return -1;
  }
  sym_file *f = fds[fd].file;
  if (!f) {
    errno = ESPIPE;
    return -1;
  }
  off_t base;
  if (whence == SEEK_SET) base = 0;
  else if (whence == SEEK_CUR)
    base = fds[fd].pos;
  else if (whence == SEEK_END)
    base = f->size;
  else {
    errno = EINVAL;
    return -1;
  }
  off_t at = base + offset;
  if (at < 0) {
    errno = EINVAL;
    return -1;
  }
  fds[fd].pos = at;
  return at;
}

WEAK off_t lseek(int fd, off_t offset, int whence) { return __symq_fd_seek(fd, offset, whence); }
WEAK off_t lseek64(int fd, off_t offset, int whence) { return __symq_fd_seek(fd, offset, whence); }

WEAK int open(const char *path, int flags, ...) { return __symq_fd_open(path, flags); }
WEAK int open64(const char *path, int flags, ...) { return __symq_fd_open(path, flags); }
WEAK int close(int fd) { return __symq_fd_close(fd); }

static ssize_t read_fd(int fd, void *buf, size_t n) {
  unsigned char *dst = buf;
  size_t got = 0;
  while (got < n) {
    int c = __symq_fd_getc(fd);
    if (c == -2) return -1;
    if (c == -1) break;
    dst[got++] = (unsigned char)c;
  }
  return (ssize_t)got;
}

WEAK ssize_t read(int fd, void *buf, size_t n) { return read_fd(fd, buf, n); }

static int stat_of(const sym_file *f, struct stat *buf) {
  *buf = *f->stat;
  return 0;
}

/* stat and lstat: the files are no links */
static int stat_path(const char *path, struct stat *buf) {
  sym_file *f = file_named(path);
  if (!f) {
    errno = ENOENT;
    return -1;
  }
  return stat_of(f, buf);
}

WEAK int stat(const char *restrict path, struct stat *restrict buf) { return stat_path(path, buf); }
WEAK int lstat(const char *restrict path, struct stat *restrict buf) {
  return stat_path(path, buf);
}
WEAK int fstat(int fd, struct stat *buf) {
  if (!valid_fd(fd)) {
    errno = EBADF;
    return -1;
  }
  if (!fds[fd].file) __symq_unsupported_fstat_of_a_standard_stream();
  return stat_of(fds[fd].file, buf);
}
