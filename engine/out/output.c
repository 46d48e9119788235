/*
 * output.c — the output directory: choosing and creating it, the symq-last link, and
 * writing every file in it atomically (temporary file in the same directory → write →
 * rename; one syncfs when the run finishes). All file operations go through a descriptor of
 * the directory (openat/renameat), so a later chdir of the process changes nothing.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include "engine/core/text.h"
#include "engine/out/output.h"
#include "engine/core/xalloc.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LAST_LINK "symq-last"
#define AUTO_PREFIX "symq-out-"

struct out_dir {
  char *path;
  int dirfd;
  uint32_t num_tests;
  uint32_t tmp_counter;
  long pid;     /* getpid() at out_open: a part of --jobs is forked, then opens its own */
  int place_fd; /* -1, or the directory tests' files are placed in (out_place_tests) */
  char *place_prefix;
  text_buf placed; /* the names placed there, one a line: PLACED_LIST at out_write_stats */
  int argc;
  char **argv;
  char error[512];
  char warning[512];
  bool has_warning;
};

/* What out_place_tests set, for the next out_open. */
static char *place_dir, *place_prefix;

void out_place_tests(const char *dir, const char *prefix) {
  free(place_dir), free(place_prefix);
  place_dir = dir ? xstrdup(dir) : NULL;
  place_prefix = dir ? xstrdup(prefix) : NULL;
}

static void fail(out_dir *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(o->error, sizeof o->error, fmt, ap);
  va_end(ap);
}

/* ---- opening the directory ---------------------------------------------------------- */

static bool dir_is_empty(const char *path, bool *empty) {
  DIR *d = opendir(path);
  if (!d) return false;
  struct dirent *e;
  *empty = true;
  errno = 0;
  while ((e = readdir(d))) {
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
      *empty = false;
      break;
    }
  }
  bool ok = errno == 0;
  closedir(d);
  return ok;
}

/* Points symq-last at `target` by renaming a fresh link over it, never touching a
 * symq-last that is not a symlink. Failure is a warning only, as in KLEE. */
static void update_last_link(out_dir *o, const char *target) {
  struct stat st;
  if (lstat(LAST_LINK, &st) == 0 && !S_ISLNK(st.st_mode)) {
    snprintf(o->warning, sizeof o->warning,
             "%s exists and is not a symbolic link; not pointing it at %s", LAST_LINK, target);
    o->has_warning = true;
    return;
  }
  char tmp[64];
  snprintf(tmp, sizeof tmp, "." LAST_LINK ".tmp-%ld", (long)getpid());
  unlink(tmp); /* a leftover of a killed run with our pid */
  if (symlink(target, tmp) < 0 || rename(tmp, LAST_LINK) < 0) {
    snprintf(o->warning, sizeof o->warning, "cannot create the %s symlink: %s", LAST_LINK,
             strerror(errno));
    o->has_warning = true;
    unlink(tmp);
  }
}

out_dir *out_open(const char *dir, char *err, size_t err_size) {
  if (err && err_size) err[0] = 0;
  out_dir *o = xcalloc(1, sizeof *o);
  o->dirfd = -1;
  o->place_fd = -1;
  o->pid = (long)getpid();

  if (dir) {
    if (!*dir) {
      text_format_to(err, err_size, "empty output directory name");
      goto fail;
    }
    if (mkdir(dir, 0775) < 0) {
      int e = errno;
      struct stat st;
      bool empty = false;
      if (e != EEXIST) {
        text_format_to(err, err_size, "cannot create output directory \"%s\": %s", dir,
                       strerror(e));
        goto fail;
      }
      if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
        text_format_to(err, err_size, "output directory \"%s\" exists and is not a directory", dir);
        goto fail;
      }
      if (!dir_is_empty(dir, &empty)) {
        text_format_to(err, err_size, "cannot read output directory \"%s\": %s", dir,
                       strerror(errno));
        goto fail;
      }
      if (!empty) {
        text_format_to(err, err_size,
                       "output directory \"%s\" already exists and is not empty; remove it or "
                       "choose another",
                       dir);
        goto fail;
      }
    }
    o->path = xstrdup(dir);
  } else {
    char name[sizeof AUTO_PREFIX + 16];
    for (uint32_t n = 0;; n++) {
      snprintf(name, sizeof name, AUTO_PREFIX "%" PRIu32, n);
      if (mkdir(name, 0775) == 0) break;
      int e = errno;
      if (e != EEXIST || n == UINT32_MAX) {
        text_format_to(err, err_size, "cannot create output directory \"%s\": %s", name,
                       strerror(e));
        goto fail;
      }
    }
    o->path = xstrdup(name);
    update_last_link(o, name);
  }

  o->dirfd = open(o->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (o->dirfd < 0) {
    text_format_to(err, err_size, "cannot open output directory \"%s\": %s", o->path,
                   strerror(errno));
    goto fail;
  }
  if (place_dir) {
    o->place_fd = open(place_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (o->place_fd < 0) {
      text_format_to(err, err_size, "cannot open the directory \"%s\" to place tests in: %s",
                     place_dir, strerror(errno));
      goto fail;
    }
    o->place_prefix = xstrdup(place_prefix);
  }
  return o;

fail:
  out_close(o);
  return NULL;
}

void out_close(out_dir *o) {
  if (!o) return;
  if (o->dirfd >= 0) close(o->dirfd);
  if (o->place_fd >= 0) close(o->place_fd);
  free(o->place_prefix);
  text_free(&o->placed);
  for (int i = 0; i < o->argc; i++) free(o->argv[i]);
  free(o->argv);
  free(o->path);
  free(o);
}

const char *out_path(const out_dir *o) { return o->path; }
const char *out_error(const out_dir *o) { return o->error; }
const char *out_warning(const out_dir *o) { return o->has_warning ? o->warning : NULL; }
uint32_t out_num_tests(const out_dir *o) { return o->num_tests; }

int out_set_args(out_dir *o, int argc, const char *const argv[]) {
  assert(argc >= 0 && (argc == 0 || argv));
  char **copy = argc ? xcalloc((size_t)argc, sizeof *copy) : NULL;
  for (int i = 0; i < argc; i++) copy[i] = xstrdup(argv[i]);
  for (int i = 0; i < o->argc; i++) free(o->argv[i]);
  free(o->argv);
  o->argc = argc;
  o->argv = copy;
  return 0;
}

/* ---- atomic files ------------------------------------------------------------------- */

static bool valid_name(const char *name) {
  return name && *name && !strchr(name, '/') && strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

/* Writes all of data to fd: false with errno set when a write fails. */
static bool write_all(int fd, const void *data, size_t len) {
  const char *p = data;
  size_t done = 0;
  while (done < len) {
    ssize_t w = write(fd, p + done, len - done);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return false;
    done += (size_t)w;
  }
  return true;
}

/* A test's file, "testNNNNNN.SUFFIX". */
static bool is_test_file(const char *name) {
  return strncmp(name, "test", 4) == 0 && name[4] >= '0' && name[4] <= '9' && strchr(name, '.');
}

/* A test's file placed under PREFIX+name in the placement directory (out_place_tests): made
 * there directly, with no temporary name (the merge's rename is the one that makes it
 * appear), and listed in o->placed. */
static int write_placed(out_dir *o, const char *name, const void *data, size_t len) {
  char placed[320];
  snprintf(placed, sizeof placed, "%.100s%.200s", o->place_prefix, name);
  int fd = openat(o->place_fd, placed, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    fail(o, "%s: %s: cannot create: %s", o->path, placed, strerror(errno));
    return -1;
  }
  bool ok = write_all(fd, data, len);
  if (!ok) fail(o, "%s: %s: write failed: %s", o->path, placed, strerror(errno));
  if (close(fd) < 0 && ok) {
    fail(o, "%s: %s: close failed: %s", o->path, placed, strerror(errno));
    ok = false;
  }
  if (!ok) {
    unlinkat(o->place_fd, placed, 0);
    return -1;
  }
  text_printf(&o->placed, "%s\n", name);
  return 0;
}

int out_write_file(out_dir *o, const char *name, const void *data, size_t len) {
  if (!valid_name(name)) {
    fail(o, "%s: invalid output file name \"%s\"", o->path, name ? name : "(null)");
    return -1;
  }
  if (o->place_fd >= 0 && is_test_file(name)) return write_placed(o, name, data, len);
  char tmp[320];
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
    snprintf(tmp, sizeof tmp, ".%.200s.tmp-%ld-%" PRIu32, name, o->pid, o->tmp_counter++);
    fd = openat(o->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    fail(o, "%s: %s: cannot create: %s", o->path, name, strerror(errno));
    return -1;
  }
  if (!write_all(fd, data, len)) {
    fail(o, "%s: %s: write failed: %s", o->path, name, strerror(errno));
    goto fail;
  }
  int rc = close(fd);
  fd = -1;
  if (rc < 0) {
    fail(o, "%s: %s: close failed: %s", o->path, name, strerror(errno));
    goto fail;
  }
  /* The rename makes the file appear whole or not at all, which is all a killed process
   * needs; durability against a crash of the machine comes from out_sync. */
  if (renameat(o->dirfd, tmp, o->dirfd, name) < 0) {
    fail(o, "%s: %s: rename failed: %s", o->path, name, strerror(errno));
    goto fail;
  }
  return 0;

fail:
  if (fd >= 0) close(fd);
  unlinkat(o->dirfd, tmp, 0);
  return -1;
}

static int write_text(out_dir *o, const char *name, text_buf *b) {
  int rc = out_write_file(o, name, b->s ? b->s : "", b->len);
  text_free(b);
  return rc;
}

/* ---- tests and per-test files ------------------------------------------------------- */

/* Writes test id's ktest file, whole or not at all. */
static int write_ktest(out_dir *o, uint32_t id, const ktest_object *objects, uint32_t num_objects) {
  char name[32];
  snprintf(name, sizeof name, "test%06" PRIu32 ".ktest", id);

  ktest t = {0};
  t.num_args = (uint32_t)o->argc;
  t.args = o->argv;
  t.num_objects = num_objects;
  t.objects = (ktest_object *)objects; /* only read */
  uint8_t *buf;
  size_t len;
  char err[256];
  if (ktest_encode(&t, &buf, &len, err, sizeof err) < 0) {
    fail(o, "%s: %s: %s", o->path, name, err);
    return -1;
  }
  int rc = out_write_file(o, name, buf, len);
  free(buf);
  return rc;
}

uint32_t out_write_test(out_dir *o, const ktest_object *objects, uint32_t num_objects) {
  if (o->num_tests == UINT32_MAX) {
    fail(o, "%s: too many tests", o->path);
    return 0;
  }
  uint32_t id = o->num_tests + 1;
  if (write_ktest(o, id, objects, num_objects) < 0) return 0;
  o->num_tests = id;
  return id;
}

int out_rewrite_test(out_dir *o, uint32_t test_id, const ktest_object *objects,
                     uint32_t num_objects) {
  if (!test_id || test_id > o->num_tests) {
    fail(o, "%s: no test %" PRIu32 " to write again", o->path, test_id);
    return -1;
  }
  size_t listed = o->placed.len; /* a placed test is listed once, when first written */
  int rc = write_ktest(o, test_id, objects, num_objects);
  if (o->placed.s) o->placed.s[o->placed.len = listed] = 0;
  return rc;
}

static bool valid_suffix(const char *s) {
  if (!s || !*s || *s == '.') return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '_' || *s == '-' || *s == '.'))
      return false;
  return true;
}

int out_write_test_file(out_dir *o, uint32_t test_id, const char *suffix, const char *text) {
  if (!valid_suffix(suffix)) {
    fail(o, "%s: invalid test file suffix \"%s\"", o->path, suffix ? suffix : "(null)");
    return -1;
  }
  char name[128];
  snprintf(name, sizeof name, "test%06" PRIu32 ".%.80s", test_id, suffix);
  return out_write_file(o, name, text ? text : "", text ? strlen(text) : 0);
}

/* Writes `text` with a tab before every line and a newline after the last. */
static void put_indented(text_buf *b, const char *text) {
  while (*text) {
    const char *nl = strchr(text, '\n');
    size_t n = nl ? (size_t)(nl - text) : strlen(text);
    text_putc(b, '\t');
    text_add(b, text, n);
    text_putc(b, '\n');
    text += n + (nl ? 1 : 0);
  }
}

/* Where e happened, as an .err file gives it after its first line: File, Line, assembly.ll
 * line and State when the file is known, then the stack, then Info. */
static void put_where(text_buf *b, const out_err *e) {
  if (e->file && *e->file) {
    text_printf(b, "File: %s\n", e->file);
    text_printf(b, "Line: %" PRIu32 "\n", e->line);
    text_printf(b, "assembly.ll line: %" PRIu64 "\n", e->asm_line);
    text_printf(b, "State: %" PRIu64 "\n", e->state_id);
  }
  text_puts(b, "Stack: \n");
  for (size_t i = 0; i < e->num_frames; i++) {
    const out_frame *f = &e->frames[i];
    text_printf(b, "\t#%zu%08" PRIu64 " in %s (%s)", i, f->asm_line, f->func ? f->func : "",
                f->args ? f->args : "");
    if (f->file && *f->file) text_printf(b, " at %s:%" PRIu32, f->file, f->line);
    text_putc(b, '\n');
  }
  if (e->info && *e->info) {
    text_puts(b, "Info: \n");
    put_indented(b, e->info);
  }
}

int out_write_error(out_dir *o, uint32_t test_id, const out_err *e) {
  assert(e);
  if (!valid_suffix(e->kind)) {
    fail(o, "%s: invalid error kind \"%s\"", o->path, e->kind ? e->kind : "(null)");
    return -1;
  }
  text_buf b = {0};
  text_printf(&b, "Error: %s\n", e->message ? e->message : "");
  put_where(&b, e);
  char name[128];
  snprintf(name, sizeof name, "test%06" PRIu32 ".%.80s.err", test_id, e->kind);
  return write_text(o, name, &b);
}

int out_write_early(out_dir *o, uint32_t test_id, const out_err *e) {
  assert(e);
  text_buf b = {0};
  text_printf(&b, "%s\n", e->message ? e->message : "");
  if (e->num_frames == 0 && !(e->file && *e->file))
    text_puts(&b, "Location: none (the path had no current instruction)\n");
  else
    put_where(&b, e);
  char name[128];
  snprintf(name, sizeof name, "test%06" PRIu32 ".early", test_id);
  return write_text(o, name, &b);
}

/* ---- info --------------------------------------------------------------------------- */

/* An argument as a shell would need it: bare when it is made only of safe characters,
 * otherwise in single quotes (a ' inside becomes '\''). */
static void put_shell_word(text_buf *b, const char *s) {
  bool safe = *s != 0;
  for (const char *p = s; *p && safe; p++)
    safe = strchr(
               "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
               "_-+=/.,:@%",
               *p) != NULL;
  if (safe) {
    text_puts(b, s);
    return;
  }
  text_putc(b, '\'');
  for (const char *p = s; *p; p++) {
    if (*p == '\'') text_puts(b, "'\\''");
    else
      text_putc(b, *p);
  }
  text_putc(b, '\'');
}

static void put_time(text_buf *b, const char *label, time_t t) {
  struct tm tm;
  char text[64];
  if (localtime_r(&t, &tm) && strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &tm))
    text_printf(b, "%s: %s\n", label, text);
  else
    text_printf(b, "%s: %lld\n", label, (long long)t);
}

static void put_one_line(text_buf *b, const char *s) {
  for (; *s; s++) text_putc(b, *s == '\n' || *s == '\r' ? ' ' : *s);
}

int out_sync(out_dir *o) {
  if (syncfs(o->dirfd) < 0) {
    fail(o, "%s: syncfs failed: %s", o->path, strerror(errno));
    return -1;
  }
  return 0;
}

char *out_format_info(const out_info *info, size_t *len) {
  assert(info);
  text_buf b = {0};
  for (int i = 0; i < info->argc; i++) {
    if (i) text_putc(&b, ' ');
    put_shell_word(&b, info->argv[i]);
  }
  text_putc(&b, '\n');
  text_printf(&b, "symq version: %s\n", info->version ? info->version : "unknown");
  text_printf(&b, "PID: %ld\n", (long)getpid());
  put_time(&b, "Started", info->start);
  if (info->end) {
    put_time(&b, "Finished", info->end);
    long long s = (long long)difftime(info->end, info->start);
    if (s < 0) s = 0;
    text_printf(&b, "Elapsed: %02lld:%02lld:%02lld\n", s / 3600, s / 60 % 60, s % 60);
  }
  text_printf(&b, "Status: %s\n",
              info->status ? info->status
              : info->end  ? "finished"
                           : "running (not finished)");
  for (size_t i = 0; i < info->num_kv; i++) {
    put_one_line(&b, info->kv[i].key ? info->kv[i].key : "");
    text_puts(&b, ": ");
    put_one_line(&b, info->kv[i].value ? info->kv[i].value : "");
    text_putc(&b, '\n');
  }
  *len = b.len;
  return b.s;
}

/* Overwrites `info` in place: for a failure status on a full disk, where the atomic way
 * needs room for a second copy; rewriting the blocks the file has needs none. */
static int overwrite_info(out_dir *o, const char *text, size_t len) {
  int fd = openat(o->dirfd, "info", O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  size_t done = 0;
  while (done < len) {
    ssize_t w = pwrite(fd, text + done, len - done, (off_t)done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    done += (size_t)w;
  }
  int rc = done == len && ftruncate(fd, (off_t)len) == 0 ? 0 : -1;
  if (close(fd) < 0) rc = -1;
  return rc;
}

int out_write_info(out_dir *o, const out_info *info) {
  /* "Finished" must not reach the disk before the files it vouches for; a failure status
   * vouches for nothing and is written at once (a sync can take seconds) */
  if (info->end && !info->status && o->place_fd < 0 && out_sync(o) < 0) return -1;
  /* (a part placing its tests elsewhere: its merge syncs once, before the merged info) */
  size_t len;
  char *text = out_format_info(info, &len);
  int rc = out_write_file(o, "info", text, len);
  if (rc < 0 && info->status && overwrite_info(o, text, len) == 0) rc = 0;
  free(text);
  return rc;
}

int out_write_stats(out_dir *o, const json_writer *j) {
  size_t len;
  const char *text = json_text(j, &len);
  if (!text) {
    fail(o, "%s: stats.json: the JSON document is incomplete", o->path);
    return -1;
  }
  if (o->place_fd >= 0 &&
      out_write_file(o, OUT_PLACED_LIST, o->placed.s ? o->placed.s : "", o->placed.len) < 0)
    return -1;
  return out_write_file(o, "stats.json", text, len);
}
