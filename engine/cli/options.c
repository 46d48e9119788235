/*
 * options.c — one parser and one help printer for every option table (options.h). The
 * parser walks argv once, in order, so the first problem is the one reported, as the
 * subcommands' hand-written parsers did.
 */
#include "engine/cli/options.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { HELP_WIDTH = 90, HELP_MAX_COLUMN = 26 };

static const char *const TOPIC_NAMES[OPT_TOPIC_COUNT] = {
    [OPT_TOPIC_NONE] = NULL,
    [OPT_TOPIC_INPUT] = "Input and compilation",
    [OPT_TOPIC_OUTPUT] = "Output",
    [OPT_TOPIC_SEARCH] = "Search and limits",
    [OPT_TOPIC_MERGING] = "Merging",
    [OPT_TOPIC_SOLVER] = "Solver",
    [OPT_TOPIC_DIAGNOSTICS] = "Diagnostics",
};

static const opt_choice ON_OFF[] = {{"on", 1}, {"off", 0}, {NULL, 0}};

int opt_usage_error(const opt_command *c, const char *fmt, const char *what) {
  fprintf(stderr, "symq: error: %s", c->error_prefix ? c->error_prefix : "");
  fprintf(stderr, fmt, what);
  fprintf(stderr, " (try 'symq %s --help')\n", c->name);
  return 2;
}

/* "bad --x 'V'", "--x takes a, b or c, not 'V'": the default for a bad value. */
static int bad_value(const opt_command *c, const opt_spec *s, const char *value) {
  if (s->bad) return opt_usage_error(c, s->bad, value);
  char fmt[256];
  size_t len = (size_t)snprintf(fmt, sizeof fmt, "bad %s '%%s'", s->name);
  const opt_choice *choices = s->type == OPT_ON_OFF ? ON_OFF : s->choices;
  if (choices) {
    size_t n = 0;
    while (choices[n].name) n++;
    len = (size_t)snprintf(fmt, sizeof fmt, "%s takes ", s->name);
    for (size_t k = 0; k < n && len < sizeof fmt; k++)
      len += (size_t)snprintf(fmt + len, sizeof fmt - len, "%s%s",
                              k == 0       ? ""
                              : k + 1 == n ? " or "
                                           : ", ",
                              choices[k].name);
    if (len < sizeof fmt) snprintf(fmt + len, sizeof fmt - len, ", not '%%s'");
  }
  return opt_usage_error(c, fmt, value);
}

static bool parse_u64(const char *text, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno || end == text || *end || text[0] == '-') return false;
  *out = v;
  return true;
}

static bool parse_duration(const char *text, double *seconds) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (errno || end == text || v < 0) return false;
  double unit = 1;
  if (!*end || strcmp(end, "s") == 0) unit = 1;
  else if (strcmp(end, "ms") == 0)
    unit = 0.001;
  else if (strcmp(end, "min") == 0)
    unit = 60;
  else if (strcmp(end, "h") == 0)
    unit = 3600;
  else
    return false;
  *seconds = v * unit;
  return true;
}

/* 10, 2.5, 10s; NaN and negative numbers are bad. */
static bool parse_seconds(const char *text, double *seconds) {
  char *end;
  double v = strtod(text, &end);
  if (*end == 's' && end[1] == 0) end++;
  if (end == text || *end || !(v >= 0)) return false;
  *seconds = v;
  return true;
}

/* Integers of every width a table names: bool, int-sized enums and unsigned, 64 bits. */
static void store_int(void *field, size_t size, uint64_t value) {
  if (size == sizeof(bool)) {
    bool b = value != 0;
    memcpy(field, &b, size);
  } else if (size == sizeof(uint32_t)) {
    uint32_t v = (uint32_t)value;
    memcpy(field, &v, size);
  } else {
    assert(size == sizeof(uint64_t));
    memcpy(field, &value, size);
  }
}

static void store_double(void *field, size_t size, double value) {
  assert(size == sizeof(double));
  memcpy(field, &value, size);
}

/* Written so that a NaN duration passes, as it always has (strtod reads "nan"). */
static bool in_range(const opt_spec *s, double v) {
  return !(s->nonzero && v == 0) && !(s->max && v > (double)s->max);
}

/* Converts value and stores it; 0 or 2 (message printed). `arg` is the argument as written. */
static int set_value(const opt_command *c, const opt_spec *s, void *target, const char *arg,
                     const char *value) {
  char *field = (char *)target + s->offset;
  switch (s->type) {
  case OPT_FLAG: store_int(field, s->size, 1); return 0;
  case OPT_ON_OFF:
  case OPT_ENUM:
    for (const opt_choice *ch = s->type == OPT_ON_OFF ? ON_OFF : s->choices; ch->name; ch++) {
      if (strcmp(ch->name, value) == 0) {
        store_int(field, s->size, (uint64_t)(int64_t)ch->value);
        return 0;
      }
    }
    return bad_value(c, s, value);
  case OPT_UINT: {
    uint64_t v;
    if (!parse_u64(value, &v) || (s->nonzero && v == 0) || (s->max && v > s->max))
      return bad_value(c, s, value);
    store_int(field, s->size, v);
    return 0;
  }
  case OPT_TIME:
  case OPT_TIME_MS:
  case OPT_SECONDS: {
    double v;
    bool ok = s->type == OPT_SECONDS ? parse_seconds(value, &v) : parse_duration(value, &v);
    if (!ok || !in_range(s, v)) return bad_value(c, s, value);
    if (s->type == OPT_TIME_MS) store_int(field, s->size, (unsigned)(v * 1000));
    else
      store_double(field, s->size, v);
    return 0;
  }
  case OPT_STRING:
    if (s->nonzero && !*value) return bad_value(c, s, value);
    assert(s->size == sizeof(const char *));
    memcpy(field, &value, sizeof value);
    return 0;
  case OPT_LIST: {
    size_t *count = (size_t *)((char *)target + s->count_offset);
    if (*count == s->max_count) {
      if (s->too_many) return opt_usage_error(c, s->too_many, arg);
      char fmt[128];
      snprintf(fmt, sizeof fmt, "too many %s options%%s", s->name);
      return opt_usage_error(c, fmt, "");
    }
    const char *text = s->keep_arg ? arg : value;
    char *elem = field + *count * s->elem_size;
    if (s->convert) {
      if (!s->convert(text, elem)) return bad_value(c, s, text);
    } else {
      assert(s->elem_size == sizeof(const char *));
      memcpy(elem, &text, sizeof text);
    }
    ++*count;
    return 0;
  }
  }
  assert(!"unknown option type");
  return 2;
}

/* Does argument a name spec s? Sets *value (NULL: none given) and *negated. */
static bool names(const opt_spec *s, const char *a, const char **value, bool *negated) {
  const char *names[2] = {s->name, s->alias};
  *negated = false;
  for (int k = 0; k < 2 && names[k]; k++) {
    size_t n = strlen(names[k]);
    if (strncmp(a, names[k], n) != 0) continue;
    if (names[k][1] != '-') { /* -I: the value attached, or none; a flag (-v) exactly */
      if (a[n] && s->type == OPT_FLAG) continue;
      *value = a[n] ? a + n : NULL;
      return true;
    }
    if (a[n] == 0) {
      *value = NULL;
      return true;
    }
    if (a[n] == '=' && s->type != OPT_FLAG) {
      *value = a + n + 1;
      return true;
    }
  }
  if (s->negatable && strncmp(a, "--no-", 5) == 0 && strcmp(a + 5, s->name + 2) == 0) {
    *value = NULL;
    *negated = true;
    return true;
  }
  return false;
}

/* `--name A B C` for an entry of s->words words: the value A,B,C. The converted element may
 * keep the text (as it keeps argv's), so the joined values live in a pool of the process. */
static int set_words(const opt_command *c, const opt_spec *s, void *target, int argc, char **argv,
                     int *i) {
  static char pool[32][96];
  static size_t used;
  assert(s->type == OPT_LIST && s->convert);
  const char *a = argv[*i];
  if (*i + (int)s->words >= argc) {
    char fmt[128];
    snprintf(fmt, sizeof fmt, "option '%%s' needs %u values", s->words);
    return opt_usage_error(c, s->missing ? s->missing : fmt, a);
  }
  if (used == sizeof pool / sizeof pool[0]) return opt_usage_error(c, "too many %s options", a);
  char *joined = pool[used];
  size_t n = 0;
  for (unsigned w = 0; w < s->words; w++) {
    const char *word = argv[*i + 1 + (int)w];
    int k = snprintf(joined + n, sizeof pool[0] - n, "%s%s", w ? "," : "", word);
    if (k < 0 || (size_t)k >= sizeof pool[0] - n) return bad_value(c, s, word);
    n += (size_t)k;
  }
  used++;
  *i += (int)s->words;
  return set_value(c, s, target, a, joined);
}

static int parse_option(const opt_command *c, int argc, char **argv, int *i, void *target) {
  const char *a = argv[*i];
  for (size_t k = 0; k < c->nspecs; k++) {
    const opt_spec *s = &c->specs[k];
    const char *value;
    bool negated;
    if (!names(s, a, &value, &negated)) continue;
    if (s->given) *(bool *)((char *)target + s->given - 1) = true;
    if (s->type == OPT_FLAG) {
      store_int((char *)target + s->offset, s->size, negated ? 0 : 1);
      return 0;
    }
    if (!value && s->implicit) value = s->implicit;
    if (!value && s->words > 1 && *i + 1 < argc && !strchr(argv[*i + 1], ','))
      return set_words(c, s, target, argc, argv, i);
    if (!value && !s->joined && *i + 1 < argc) value = argv[++*i];
    if (!value) {
      const char *fmt = s->missing  ? s->missing
                        : s->joined ? "unknown option '%s'"
                                    : "option '%s' needs a value";
      return opt_usage_error(c, fmt, a);
    }
    return set_value(c, s, target, a, value);
  }
  return opt_usage_error(c, "unknown option '%s'", a);
}

static int positional(const opt_command *c, void *target, const char *arg) {
  if (c->positional_call) return c->positional_call(c, target, arg);
  assert(c->positional);
  const char **slot = (const char **)((char *)target + c->positional - 1);
  if (*slot) return opt_usage_error(c, c->second_positional, arg);
  *slot = arg;
  return 0;
}

int opt_parse(const opt_command *c, int argc, char **argv, int first, void *target) {
  for (size_t k = 0; k < c->nspecs; k++) {
    const opt_spec *s = &c->specs[k];
    if (!s->def) continue;
    int rc = set_value(c, s, target, s->def, s->def);
    assert(rc == 0 && "a table's default is a valid value");
    (void)rc;
  }
  for (int i = first; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0 && c->rest) return c->rest(target, argc - i - 1, argv + i + 1);
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 || strcmp(a, "--help-all") == 0) {
      opt_print_help(c, stdout, strcmp(a, "--help-all") == 0);
      return 1;
    }
    int rc = a[0] != '-' || (c->dash_is_positional && strcmp(a, "-") == 0)
                 ? positional(c, target, a)
                 : parse_option(c, argc, argv, &i, target);
    if (rc) return rc;
  }
  return 0;
}

/* ---- help -------------------------------------------------------------------------------- */

/* "--max-time=TIME", "--[no-]progress", "--incremental-merge[=on|off]", "-I DIR". */
static void left_column(const opt_command *c, const opt_spec *s, char *buf, size_t size) {
  bool is_short = s->name[1] != '-';
  if (s->negatable) {
    snprintf(buf, size, "--[no-]%s", s->name + 2);
    return;
  }
  const char *sep = is_short ? (s->joined ? "" : " ") : c->value_sep ? c->value_sep : "=";
  if (!s->arg) snprintf(buf, size, "%s", s->name);
  else if (s->implicit)
    snprintf(buf, size, "%s[=%s]", s->name, s->arg);
  else
    snprintf(buf, size, "%s%s%s", s->name, sep, s->arg);
}

static bool shown(const opt_spec *s, bool all) { return all || !s->eval_only; }

/* The help paragraph from column `col` on, its words reflowed to HELP_WIDTH. */
static void print_paragraph(FILE *f, const char *text, int pos, int col) {
  bool first = true;
  for (const char *p = text; *p;) {
    while (*p == ' ') p++;
    if (!*p) break;
    int len = (int)strcspn(p, " ");
    if (!first && pos + 1 + len > HELP_WIDTH) {
      fprintf(f, "\n%*s", col, "");
      pos = col;
    } else if (!first) {
      fputc(' ', f);
      pos++;
    }
    fwrite(p, 1, (size_t)len, f);
    pos += len;
    p += len;
    first = false;
  }
  fputc('\n', f);
}

void opt_print_help(const opt_command *c, FILE *f, bool all) {
  char left[128];
  int col = 0;
  for (size_t k = 0; k < c->nspecs; k++) {
    left_column(c, &c->specs[k], left, sizeof left);
    int want = 2 + (int)strlen(left) + 2;
    if (shown(&c->specs[k], all) && want > col) col = want;
  }
  if (col > HELP_MAX_COLUMN) col = HELP_MAX_COLUMN;
  fputs(c->usage, f);
  if (c->about) fputs(c->about, f);
  for (int t = 0; t < OPT_TOPIC_COUNT; t++) {
    bool heading = false;
    for (size_t k = 0; k < c->nspecs; k++) {
      const opt_spec *s = &c->specs[k];
      if (s->topic != (opt_topic)t || !shown(s, all)) continue;
      if (!heading && TOPIC_NAMES[t]) fprintf(f, "\n%s:\n", TOPIC_NAMES[t]);
      heading = true;
      left_column(c, s, left, sizeof left);
      int pos = fprintf(f, "  %s", left);
      if (pos + 2 > col) pos += fprintf(f, "  ");
      else
        pos += fprintf(f, "%*s", col - pos, "");
      print_paragraph(f, s->help, pos, col);
    }
  }
  if (c->epilog) fputs(c->epilog, f);
  bool hidden = false;
  for (size_t k = 0; k < c->nspecs; k++) hidden |= !shown(&c->specs[k], all);
  if (hidden)
    fprintf(f, "\n'symq %s --help-all' also lists the options of eval/'s experiments.\n", c->name);
}
