/*
 * mergeout.c — one output directory from several (contract in mergeout.h).
 *
 * stats.json is read back with a small parser for what engine/core/json.h writes (objects,
 * arrays, strings without \u escapes beyond what it emits, numbers, true/false/null), summed
 * member by member into the first directory's tree, and written again with json.h.
 */
#include "engine/cli/mergeout.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/core/json.h"
#include "engine/core/xalloc.h"
#include "engine/exec/part.h"
#include "engine/out/output.h"

/* ---- files ---------------------------------------------------------------------------- */

/* Writes dir/name whole: a temporary file renamed into place. */
static bool write_file(const char *dir, const char *name, const char *data, size_t len, char *err,
                       size_t err_size) {
  char *path = xasprintf("%s/%s", dir, name);
  char *tmp = xasprintf("%s/.%s.tmp-%ld", dir, name, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  bool ok = f && fwrite(data, 1, len, f) == len;
  if (f && fclose(f) != 0) ok = false;
  if (ok && rename(tmp, path) != 0) ok = false;
  if (!ok) {
    snprintf(err, err_size, "%s: cannot write: %s", path, strerror(errno));
    unlink(tmp);
  }
  free(path);
  free(tmp);
  return ok;
}

/* ---- stats.json ----------------------------------------------------------------------- */

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jkind;

typedef struct jval {
  jkind kind;
  bool b, integral;
  double num;
  uint64_t u; /* the value when integral and not negative */
  char *str;
  char **keys; /* J_OBJ */
  struct jval **items;
  size_t n;
} jval;

static void jfree(jval *v) {
  if (!v) return;
  free(v->str);
  for (size_t k = 0; k < v->n; k++) {
    if (v->keys) free(v->keys[k]);
    jfree(v->items[k]);
  }
  free(v->keys);
  free(v->items);
  free(v);
}

static void skip(const char **p) {
  while (isspace((unsigned char)**p)) (*p)++;
}

static char *parse_string(const char **p) {
  if (**p != '"') return NULL;
  (*p)++;
  size_t cap = 16, n = 0;
  char *s = xmalloc(cap);
  for (; **p && **p != '"'; (*p)++) {
    char c = **p;
    if (c == '\\') {
      (*p)++;
      c = **p == 'n' ? '\n' : **p == 't' ? '\t' : **p == 'r' ? '\r' : **p;
      if (**p == 'u') { /* json.h writes \u00XX for control characters */
        unsigned v = 0;
        if (sscanf(*p + 1, "%4x", &v) != 1) break;
        c = (char)v;
        *p += 4;
      }
    }
    if (n + 2 > cap) s = xrealloc(s, cap *= 2);
    s[n++] = c;
  }
  if (**p != '"') {
    free(s);
    return NULL;
  }
  (*p)++;
  s[n] = 0;
  return s;
}

static jval *parse_value(const char **p, int depth);

static jval *parse_members(const char **p, int depth, bool object) {
  jval *v = xcalloc(1, sizeof *v);
  v->kind = object ? J_OBJ : J_ARR;
  (*p)++;
  skip(p);
  char close = object ? '}' : ']';
  if (**p == close) {
    (*p)++;
    return v;
  }
  size_t cap = 0;
  for (;;) {
    skip(p);
    char *key = NULL;
    if (object) {
      if (!(key = parse_string(p))) break;
      skip(p);
      if (*(*p)++ != ':') {
        free(key);
        break;
      }
    }
    jval *item = parse_value(p, depth + 1);
    if (!item) {
      free(key);
      break;
    }
    if (v->n == cap) {
      cap = cap ? 2 * cap : 8;
      v->items = xrealloc(v->items, cap * sizeof *v->items);
      if (object) v->keys = xrealloc(v->keys, cap * sizeof *v->keys);
    }
    if (object) v->keys[v->n] = key;
    v->items[v->n++] = item;
    skip(p);
    if (**p == ',') {
      (*p)++;
      continue;
    }
    if (**p == close) {
      (*p)++;
      return v;
    }
    break;
  }
  jfree(v);
  return NULL;
}

static jval *parse_value(const char **p, int depth) {
  skip(p);
  if (depth > 64) return NULL;
  if (**p == '{' || **p == '[') return parse_members(p, depth, **p == '{');
  jval *v = xcalloc(1, sizeof *v);
  if (**p == '"') {
    v->kind = J_STR;
    if (!(v->str = parse_string(p))) {
      free(v);
      return NULL;
    }
  } else if (!strncmp(*p, "true", 4) || !strncmp(*p, "false", 5)) {
    v->kind = J_BOOL;
    v->b = **p == 't';
    *p += v->b ? 4 : 5;
  } else if (!strncmp(*p, "null", 4)) {
    *p += 4;
  } else {
    char *end;
    v->kind = J_NUM;
    v->num = strtod(*p, &end);
    if (end == *p) {
      free(v);
      return NULL;
    }
    v->integral = strcspn(*p, ".eE,}] \n") == (size_t)(end - *p) && **p != '-';
    if (v->integral) v->u = strtoull(*p, NULL, 10);
    *p = end;
  }
  return v;
}

static jval *parse_json(const char *text) {
  const char *p = text;
  jval *v = parse_value(&p, 0);
  skip(&p);
  if (v && *p) {
    jfree(v);
    return NULL;
  }
  return v;
}

/* Members that are a maximum over the run, not a count. */
static bool is_maximum(const char *key) {
  return strstr(key, "_max") || strstr(key, "max_") || strstr(key, "slowest") ||
         strstr(key, "peak") || !strcmp(key, "covered_lines") || !strcmp(key, "total_lines");
}

static void sum_into(jval *into, const jval *add, const char *key) {
  if (into->kind != add->kind) return; /* the first directory's shape wins */
  switch (into->kind) {
  case J_NUM:
    if (key && is_maximum(key)) {
      if (add->num > into->num) into->num = add->num, into->u = add->u;
    } else {
      into->num += add->num;
      into->u += add->u;
    }
    into->integral = into->integral && add->integral;
    break;
  case J_BOOL:
    into->b = key && !strcmp(key, "exhausted") ? into->b && add->b : into->b || add->b;
    break;
  case J_OBJ:
    for (size_t k = 0; k < add->n; k++) {
      size_t j = 0;
      while (j < into->n && strcmp(into->keys[j], add->keys[k]) != 0) j++;
      if (j < into->n) {
        sum_into(into->items[j], add->items[k], add->keys[k]);
        continue;
      }
      into->keys = xrealloc(into->keys, (into->n + 1) * sizeof *into->keys);
      into->items = xrealloc(into->items, (into->n + 1) * sizeof *into->items);
      into->keys[into->n] = xstrdup(add->keys[k]);
      into->items[into->n] = xcalloc(1, sizeof(jval));
      into->items[into->n]->kind = add->items[k]->kind;
      into->items[into->n]->integral = true;
      if (add->items[k]->kind == J_BOOL) into->items[into->n]->b = add->items[k]->b;
      if (add->items[k]->kind == J_STR) into->items[into->n]->str = xstrdup(add->items[k]->str);
      into->n++;
      if (add->items[k]->kind == J_NUM || add->items[k]->kind == J_OBJ)
        sum_into(into->items[into->n - 1], add->items[k], add->keys[k]);
    }
    break;
  default: break; /* strings, arrays, null: the first directory's */
  }
}

static jval *member(const jval *v, const char *key) {
  for (size_t k = 0; v && v->kind == J_OBJ && k < v->n; k++)
    if (!strcmp(v->keys[k], key)) return v->items[k];
  return NULL;
}

static uint64_t member_uint(const jval *v, const char *key) {
  const jval *m = member(v, key);
  return m && m->kind == J_NUM ? (m->integral ? m->u : (uint64_t)m->num) : 0;
}

static void write_json(json_writer *j, const jval *v) {
  switch (v->kind) {
  case J_NULL: json_null(j); break;
  case J_BOOL: json_bool(j, v->b); break;
  case J_NUM:
    if (v->integral) json_uint(j, v->u);
    else
      json_double(j, v->num);
    break;
  case J_STR: json_string(j, v->str); break;
  case J_ARR:
    json_array_begin(j);
    for (size_t k = 0; k < v->n; k++) write_json(j, v->items[k]);
    json_array_end(j);
    break;
  case J_OBJ:
    json_object_begin(j);
    for (size_t k = 0; k < v->n; k++) {
      json_key(j, v->keys[k]);
      write_json(j, v->items[k]);
    }
    json_object_end(j);
    break;
  }
}

static void set_uint(jval *obj, const char *key, uint64_t value) {
  jval *m = member(obj, key);
  if (!m) {
    obj->keys = xrealloc(obj->keys, (obj->n + 1) * sizeof *obj->keys);
    obj->items = xrealloc(obj->items, (obj->n + 1) * sizeof *obj->items);
    obj->keys[obj->n] = xstrdup(key);
    m = obj->items[obj->n++] = xcalloc(1, sizeof *m);
  }
  *m = (jval){.kind = J_NUM, .integral = true, .u = value, .num = (double)value};
}

/* ---- tests ---------------------------------------------------------------------------- */

typedef struct test_file {
  uint32_t id;
  char *name;
} test_file;

static int by_test(const void *a, const void *b) {
  const test_file *x = a, *y = b;
  if (x->id != y->id) return x->id < y->id ? -1 : 1;
  return strcmp(x->name, y->name);
}

/* The test number of "testNNNNNN.SUFFIX" (0 when the name is not a test's). */
static uint32_t test_id_of(const char *name) {
  if (strncmp(name, "test", 4) != 0 || !isdigit((unsigned char)name[4])) return 0;
  char *end;
  unsigned long id = strtoul(name + 4, &end, 10);
  return *end == '.' && id && id <= UINT32_MAX ? (uint32_t)id : 0;
}

/* What identifies an error for the once-per-location rule: the kind (from the file name),
 * and the Error, File and Line lines and the innermost frame's function. */
static char *error_key(const char *name, const char *text) {
  const char *kind = strchr(name, '.') + 1;
  size_t kind_len = strlen(kind) - 4; /* without ".err" */
  char *key = xasprintf("%.*s\n", (int)kind_len, kind);
  const char *wanted[] = {"Error: ", "File: ", "Line: ", "\t#"};
  for (size_t k = 0; k < 4; k++) {
    const char *at = strstr(text, wanted[k]);
    if (!at || (at != text && at[-1] != '\n')) continue;
    size_t len = strcspn(at, "\n");
    if (k == 3) { /* "\t#<index and asm line> in FUNC (" : the function only */
      const char *in = strstr(at, " in ");
      if (in && in < at + len) at = in, len = strcspn(at, "(");
    }
    char *longer = xasprintf("%s%.*s\n", key, (int)len, at);
    free(key);
    key = longer;
  }
  return key;
}

typedef struct merge_job {
  const char *dst;
  const mergeout_options *o;
  uint32_t next_id;
  char **seen; /* error keys already reported */
  size_t nseen;
  uint64_t left_out;
  char *lost; /* lost.early, concatenated */
  size_t lost_len;
  char *err;
  size_t err_size;
} merge_job;

static bool seen_error(merge_job *m, char *key) {
  for (size_t k = 0; k < m->nseen; k++)
    if (!strcmp(m->seen[k], key)) {
      free(key);
      return true;
    }
  m->seen = xrealloc(m->seen, (m->nseen + 1) * sizeof *m->seen);
  m->seen[m->nseen++] = key;
  return false;
}

/* Adds name to files (a test's file: test_id_of is not 0; other names are skipped). */
static void add_test_file(test_file **files, size_t *n, size_t *cap, const char *name) {
  uint32_t id = test_id_of(name);
  if (!id) return;
  if (*n == *cap) *files = xrealloc(*files, (*cap = *cap ? 2 * *cap : 64) * sizeof **files);
  (*files)[(*n)++] = (test_file){id, xstrdup(name)};
}

/* The tests' files of directory src, or false with a message in m->err. */
static bool list_dir(merge_job *m, const char *src, test_file **files, size_t *n) {
  DIR *d = opendir(src);
  if (!d) {
    snprintf(m->err, m->err_size, "%s: cannot read the directory: %s", src, strerror(errno));
    return false;
  }
  size_t cap = 0;
  for (struct dirent *e; (e = readdir(d));) add_test_file(files, n, &cap, e->d_name);
  closedir(d);
  return true;
}

/* The tests' files a part placed (out_place_tests), as src/OUT_PLACED_LIST names
 * them, or false with a message in m->err. */
static bool list_placed(merge_job *m, const char *src, test_file **files, size_t *n) {
  char *path = xasprintf("%s/" OUT_PLACED_LIST, src);
  size_t len, cap = 0;
  char *text = part_read_file(path, &len);
  if (!text) snprintf(m->err, m->err_size, "%s: cannot read: %s", path, strerror(errno));
  free(path);
  for (char *line = text, *nl; line && *line; line = nl + 1) {
    if (!(nl = strchr(line, '\n'))) break; /* the list ends with a newline */
    *nl = 0;
    add_test_file(files, n, &cap, line);
  }
  free(text);
  return text != NULL;
}

/* Moves, links or copies one test file, src_path, to m->dst/new_name. */
static bool put_file(merge_job *m, const char *src_path, const char *new_name, bool placed) {
  char *new_path = xasprintf("%s/%s", m->dst, new_name);
  bool ok = true;
  if (placed) { /* on m->dst's file system already, under its part's name */
    if (rename(src_path, new_path) != 0) {
      snprintf(m->err, m->err_size, "%s: cannot rename to %s: %s", src_path, new_name,
               strerror(errno));
      ok = false;
    }
  } else if (!m->o->link_files || link(src_path, new_path) != 0) { /* no link: a copy */
    size_t len;
    char *data = part_read_file(src_path, &len);
    if (!data) {
      snprintf(m->err, m->err_size, "%s: cannot read: %s", src_path, strerror(errno));
      ok = false;
    } else {
      ok = write_file(m->dst, new_name, data, len, m->err, m->err_size);
    }
    free(data);
  }
  free(new_path);
  return ok;
}

/* Merges one directory's tests into m->dst: the files of src (prefix NULL), or those a part
 * placed in placed_in under prefix (listed in src/OUT_PLACED_LIST); sorted by test, then name.
 * A placed file not kept (an error already reported, a file with no test) is removed. */
static bool merge_tests(merge_job *m, const char *src, const char *placed_in, const char *prefix) {
  test_file *files = NULL;
  size_t n = 0;
  if (!(prefix ? list_placed(m, src, &files, &n) : list_dir(m, src, &files, &n))) return false;
  if (n) qsort(files, n, sizeof *files, by_test); /* files is NULL when the part wrote no test */
  size_t kept = 0;                                /* a file written twice is listed twice: once */
  for (size_t k = 0; k < n; k++) {
    if (kept && !strcmp(files[k].name, files[kept - 1].name)) free(files[k].name);
    else
      files[kept++] = files[k];
  }
  n = kept;
  const char *from = prefix ? placed_in : src;
  bool ok = true;
  for (size_t k = 0; k < n && ok;) {
    size_t end = k;
    bool has_ktest = false, dropped = false;
    for (; end < n && files[end].id == files[k].id; end++) {
      const char *name = files[end].name;
      size_t len = strlen(name);
      has_ktest |= len > 6 && !strcmp(name + len - 6, ".ktest");
      if (len > 4 && !strcmp(name + len - 4, ".err") && !m->o->keep_all_errors) {
        char *path = xasprintf("%s/%s%s", from, prefix ? prefix : "", name);
        size_t tlen;
        char *text = part_read_file(path, &tlen);
        free(path);
        if (text && seen_error(m, error_key(name, text))) dropped = true;
        free(text);
      }
    }
    if (dropped) m->left_out++;
    uint32_t id = has_ktest && !dropped ? ++m->next_id : 0;
    for (size_t j = k; j < end && ok; j++) {
      const char *name = files[j].name;
      char *path = xasprintf("%s/%s%s", from, prefix ? prefix : "", name);
      char *new_name = xasprintf("test%06" PRIu32 "%s", id, strchr(name, '.'));
      if (id) ok = put_file(m, path, new_name, prefix != NULL);
      else if (prefix)
        unlink(path); /* not kept: the single run would not have written it */
      free(new_name);
      free(path);
    }
    k = end;
  }
  for (size_t k = 0; k < n; k++) free(files[k].name);
  free(files);
  char *lost_path = xasprintf("%s/lost.early", src);
  size_t len;
  char *lost = part_read_file(lost_path, &len);
  if (lost) {
    m->lost = xrealloc(m->lost, m->lost_len + len + 1);
    memcpy(m->lost + m->lost_len, lost, len);
    m->lost_len += len;
  }
  free(lost);
  free(lost_path);
  return ok;
}

/* The parsed stats.json of src, or NULL with a message in err. */
static jval *read_stats(const char *src, char *err, size_t err_size) {
  char *path = xasprintf("%s/stats.json", src);
  size_t len;
  char *text = part_read_file(path, &len);
  jval *v = text ? parse_json(text) : NULL;
  if (!v || v->kind != J_OBJ) {
    snprintf(err, err_size, "%s: %s", path,
             text ? "not a stats.json symq wrote"
                  : "cannot read it (not a finished symq output directory?)");
    jfree(v);
    v = NULL;
  }
  free(text);
  free(path);
  return v;
}

struct mergeout_job {
  merge_job m;
  jval *stats;  /* summed so far; NULL before the first directory */
  char *first;  /* the first directory (its info is the merged one's) */
  size_t added; /* directories merged */
};

mergeout_job *mergeout_begin(const char *dst, const mergeout_options *o, char *err,
                             size_t err_size) {
  if (!o->into_existing && mkdir(dst, 0755) != 0 &&
      !(errno == EEXIST && rmdir(dst) == 0 && mkdir(dst, 0755) == 0)) {
    snprintf(err, err_size, "%s: cannot create the directory (it must not exist or be empty): %s",
             dst, strerror(errno));
    return NULL;
  }
  mergeout_job *j = xcalloc(1, sizeof *j);
  j->m = (merge_job){.dst = dst, .o = o, .err = err, .err_size = err_size};
  return j;
}

static bool add_parsed(mergeout_job *j, const char *src, jval *stats, const char *placed_in,
                       const char *prefix) {
  if (!j->stats) j->stats = stats, j->first = xstrdup(src);
  else {
    sum_into(j->stats, stats, NULL);
    jfree(stats);
  }
  j->added++;
  return merge_tests(&j->m, src, placed_in, prefix);
}

bool mergeout_add(mergeout_job *j, const char *src) {
  jval *stats = read_stats(src, j->m.err, j->m.err_size);
  return stats && add_parsed(j, src, stats, NULL, NULL);
}

bool mergeout_add_placed(mergeout_job *j, const char *src, const char *placed_in,
                         const char *prefix) {
  jval *stats = read_stats(src, j->m.err, j->m.err_size);
  return stats && add_parsed(j, src, stats, placed_in, prefix);
}

static void job_free(mergeout_job *j) {
  for (size_t k = 0; k < j->m.nseen; k++) free(j->m.seen[k]);
  free(j->m.seen);
  free(j->m.lost);
  jfree(j->stats);
  free(j->first);
  free(j);
}

void mergeout_abandon(mergeout_job *j) {
  if (j) job_free(j);
}

int mergeout_end(mergeout_job *j, mergeout_summary *sum) {
  merge_job *m = &j->m;
  const mergeout_options *o = m->o;
  memset(sum, 0, sizeof *sum);
  if (!j->added) {
    snprintf(m->err, m->err_size, "no output directory to merge");
    job_free(j);
    return -1;
  }
  /* the merged stats.json and info vouch for every test: durable first (the parts placing
   * their tests here did not sync, output.h) */
  int fd = open(m->dst, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  bool ok = fd >= 0 && syncfs(fd) == 0;
  if (!ok) snprintf(m->err, m->err_size, "%s: cannot sync: %s", m->dst, strerror(errno));
  if (fd >= 0) close(fd);
  if (ok && m->lost_len)
    ok = write_file(m->dst, "lost.early", m->lost, m->lost_len, m->err, m->err_size);
  jval *stats = j->stats;
  if (ok) {
    set_uint(stats, "tests", m->next_id);
    set_uint(stats, "merged_outputs", j->added);
    set_uint(stats, "errors_left_out", m->left_out);
    if (o->parts_not_run) {
      set_uint(stats, "parts_not_run", o->parts_not_run);
      jval *exhausted = member(stats, "exhausted");
      if (exhausted && exhausted->kind == J_BOOL) exhausted->b = false;
    }
    json_writer w;
    json_init(&w);
    write_json(&w, stats);
    size_t len;
    const char *text = json_text(&w, &len);
    ok = write_file(m->dst, "stats.json", text, len, m->err, m->err_size);
    json_free(&w);
  }
  if (ok) { /* the program, as replay needs it: the first directory's */
    char *path = xasprintf("%s/info", j->first);
    size_t len;
    char *info = part_read_file(path, &len);
    if (info) ok = write_file(m->dst, "info", info, len, m->err, m->err_size);
    free(info);
    free(path);
  }
  const jval *exhausted = member(stats, "exhausted");
  *sum = (mergeout_summary){.outputs = j->added,
                            .tests = m->next_id,
                            .errors_left_out = m->left_out,
                            .completed_paths = member_uint(stats, "completed_paths"),
                            .error_paths = member_uint(stats, "error_paths"),
                            .early_paths = member_uint(stats, "early_paths"),
                            .instructions = member_uint(stats, "instructions"),
                            .exhausted = exhausted && exhausted->kind == J_BOOL && exhausted->b};
  job_free(j);
  return ok ? 0 : -1;
}

int mergeout_dirs(const char *const *srcs, size_t n, const char *dst, const mergeout_options *o,
                  mergeout_summary *sum, char *err, size_t err_size) {
  memset(sum, 0, sizeof *sum);
  if (!n) {
    snprintf(err, err_size, "no output directory to merge");
    return -1;
  }
  jval **stats = xcalloc(n, sizeof *stats);
  bool ok = true;
  for (size_t k = 0; k < n && ok; k++) /* every input is read before anything is written */
    ok = (stats[k] = read_stats(srcs[k], err, err_size)) != NULL;
  mergeout_job *j = ok ? mergeout_begin(dst, o, err, err_size) : NULL;
  size_t k = 0;
  for (; j && k < n && ok; k++) ok = add_parsed(j, srcs[k], stats[k], NULL, NULL);
  for (; k < n; k++) jfree(stats[k]); /* those not handed to the job */
  free(stats);
  if (!j) return -1;
  if (!ok) {
    mergeout_abandon(j);
    return -1;
  }
  return mergeout_end(j, sum);
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The rest of the line after `prefix` at a line start in text ("" when none), as %.*s. */
static int line_after(const char *text, const char *prefix, const char **at) {
  const char *p = strstr(text, prefix);
  while (p && p != text && p[-1] != '\n') p = strstr(p + 1, prefix);
  *at = p ? p + strlen(prefix) : "";
  return (int)strcspn(*at, "\n");
}

void mergeout_print_errors(FILE *f, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  char **names = NULL;
  size_t n = 0;
  for (struct dirent *e; (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (!test_id_of(e->d_name) || len < 4 || strcmp(e->d_name + len - 4, ".err") != 0) continue;
    names = xrealloc(names, (n + 1) * sizeof *names);
    names[n++] = xstrdup(e->d_name);
  }
  closedir(d);
  if (n) qsort(names, n, sizeof *names, by_name);
  for (size_t k = 0; k < n; k++) {
    char *path = xasprintf("%s/%s", dir, names[k]);
    size_t len;
    char *text = part_read_file(path, &len);
    if (text) {
      const char *msg, *file, *line;
      int nm = line_after(text, "Error: ", &msg), nf = line_after(text, "File: ", &file);
      int nl = line_after(text, "Line: ", &line);
      fprintf(f, "symq: ERROR: %.*s:%.*s: %.*s\n", nf, file, nl, line, nm, msg);
    }
    free(text);
    free(path);
    free(names[k]);
  }
  free(names);
}

void mergeout_print_summary(FILE *f, const mergeout_summary *s) {
  fprintf(f, "symq: done: merged %zu output director%s\n", s->outputs,
          s->outputs == 1 ? "y" : "ies");
  fprintf(f, "symq: done: total instructions = %" PRIu64 "\n", s->instructions);
  fprintf(f,
          "symq: done: completed paths = %" PRIu64 ", error paths = %" PRIu64
          ", generated tests = %" PRIu64 "\n",
          s->completed_paths, s->error_paths, s->tests);
  if (s->exhausted) fprintf(f, "symq: done: exploration complete\n");
  else
    fprintf(f,
            "symq: done: exploration incomplete: %" PRIu64
            " paths ended early or alternatives were not explored (stats.json's early_reasons, "
            "dropped_reasons)\n",
            s->early_paths);
}

static const char USAGE[] = "usage: symq merge-out OUTDIR... -o OUTDIR [--keep-all-errors]\n";

int mergeout_main(int argc, char **argv) {
  const char **srcs = xcalloc((size_t)argc, sizeof *srcs);
  size_t n = 0;
  const char *dst = NULL;
  mergeout_options o = {0};
  for (int k = 2; k < argc; k++) {
    if (!strcmp(argv[k], "--help") || !strcmp(argv[k], "-h")) {
      fputs(USAGE, stdout);
      fputs(
          "  One output directory from those of one exploration's parts (symq run --split,\n"
          "  --part): tests renumbered (directory by directory, then by number) with their\n"
          "  .err and other files, an error reported once per location unless\n"
          "  --keep-all-errors (the parts ran with --emit-all-errors), stats.json summed\n"
          "  (exhausted only if every part's was), info from the first directory.\n"
          "Exit status: 0 merged, 2 bad usage or a directory that is no finished output,\n"
          "4 a file could not be written.\n",
          stdout);
      free(srcs);
      return 0;
    }
    if (!strcmp(argv[k], "--keep-all-errors")) o.keep_all_errors = true;
    else if (!strcmp(argv[k], "-o") && k + 1 < argc)
      dst = argv[++k];
    else if (!strncmp(argv[k], "-o", 2) && argv[k][2])
      dst = argv[k] + 2;
    else if (argv[k][0] == '-') {
      fprintf(stderr, "symq: error: unknown option '%s' (try 'symq merge-out --help')\n", argv[k]);
      free(srcs);
      return 2;
    } else
      srcs[n++] = argv[k];
  }
  if (!dst || !n) {
    fprintf(stderr, "symq: error: %s (try 'symq merge-out --help')\n",
            dst ? "no output directory to merge" : "no -o OUTDIR");
    free(srcs);
    return 2;
  }
  char err[1200];
  mergeout_summary sum;
  int rc = mergeout_dirs(srcs, n, dst, &o, &sum, err, sizeof err);
  free(srcs);
  if (rc != 0) {
    fprintf(stderr, "symq: error: %s\n", err);
    return strstr(err, "cannot write") ? 4 : 2;
  }
  mergeout_print_errors(stderr, dst);
  mergeout_print_summary(stdout, &sum);
  return 0;
}
