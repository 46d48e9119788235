/*
 * options — the command-line options of symq's subcommands, each declared once in a table:
 * an opt_spec gives its name and alias, the type of its value, the field it sets (an offset
 * into the command's options struct), its default, its help text and topic, and whether it
 * is for users or only for eval/'s experiments. From one table opt_parse parses argv and
 * opt_print_help prints `--help` (the user options, grouped by topic) or `--help-all` (the
 * eval/ options too).
 *
 * Values: `--name=V` or `--name V`; `-NV` or `-N V` for a one-letter name; an entry with
 * `words` also takes `--name A B C` (KLEE's --sym-args MIN MAX N). A flag takes no
 * value (`--flag=V` is an unknown option). An entry with `joined` takes its value only
 * attached (`--modes=X`, `-DX`); one with `implicit` takes its value only attached and means
 * `implicit` when bare (`--incremental-merge`).
 *
 * Messages: every usage error is one line `symq: error: PREFIXmessage (try 'symq CMD
 * --help')` on stderr, exit status 2. The default messages (an entry may give its own):
 *   option '--x' needs a value     unknown option '--x'     too many --x options
 *   bad --x 'V'                    --x takes a, b or c, not 'V' (enums, on|off)
 *
 * Contract: opt_parse stores argument strings themselves (borrowed from argv) in string
 * fields, and a `words` entry's joined value in a static pool; nothing is allocated.
 */
#ifndef SYMQ_CLI_OPTIONS_H
#define SYMQ_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum opt_type {
  OPT_FLAG,    /* no value: the bool (or int) field becomes 1; `negatable`: --no-NAME makes it 0 */
  OPT_ON_OFF,  /* on|off into a bool field */
  OPT_ENUM,    /* one of `choices` into an int-sized (enum) or bool field */
  OPT_UINT,    /* a decimal number up to max into a 4- or 8-byte unsigned field; MB
                  sizes are numbers too (their unit is in the help) */
  OPT_TIME,    /* a duration, KLEE's syntax (30, 30s, 500ms, 1.5min, 2h), up to max
                  seconds, into a double (seconds) */
  OPT_TIME_MS, /* the same into an unsigned field, in milliseconds */
  OPT_SECONDS, /* plain seconds (10, 2.5, 10s; not NaN), up to max, into a double */
  OPT_STRING,  /* the text, into a const char * field */
  OPT_LIST,    /* repeatable: each value appended to an array field (its count at
                  count_offset, at most max_count), converted by `convert` or kept as text */
} opt_type;

/* Help topics, in the order the help prints them; OPT_TOPIC_NONE has no heading. */
typedef enum opt_topic {
  OPT_TOPIC_NONE,
  OPT_TOPIC_INPUT,
  OPT_TOPIC_OUTPUT,
  OPT_TOPIC_SEARCH,
  OPT_TOPIC_MERGING,
  OPT_TOPIC_SOLVER,
  OPT_TOPIC_DIAGNOSTICS,
  OPT_TOPIC_COUNT
} opt_topic;

typedef struct opt_choice {
  const char *name;
  int value;
} opt_choice;

typedef struct opt_spec {
  const char *name;  /* "--max-time", "-I" */
  const char *alias; /* another name for it, or NULL */
  opt_type type;
  const char *arg;           /* the value in the help ("TIME", "none|cfg|pat"); NULL for flags */
  size_t offset, size;       /* the field: OPT_FIELD(struct, member) */
  const char *def;           /* the default, written as a user would; NULL: the field as the
                                caller initialized it */
  uint64_t max;              /* numbers and times (seconds): the largest; 0: no bound */
  bool nonzero;              /* 0 (numbers, times) or "" (strings) is a bad value */
  const opt_choice *choices; /* OPT_ENUM: ends with a NULL name */
  bool negatable;            /* OPT_FLAG: --no-NAME too */
  bool joined;               /* the value only attached: --name=V, -NV */
  const char *implicit;      /* the value of a bare --name (implies joined) */
  bool keep_arg;             /* OPT_LIST: store the argument as written (-DX), for passing on */
  unsigned words;            /* > 1 (an OPT_LIST with convert): KLEE's spelling of a value as
                                that many separate words, `--name A B C` read as --name=A,B,C
                                (a next word holding a comma is the value on its own) */
  size_t count_offset, max_count, elem_size;     /* OPT_LIST: a size_t count, the array's room */
  bool (*convert)(const char *text, void *elem); /* OPT_LIST: text to element; NULL: text */
  size_t given;         /* OPT_GIVEN(struct, member): a bool set when the option appears */
  const char *bad;      /* a bad value's message, one %s: the value */
  const char *missing;  /* no value's message, one %s: the argument */
  const char *too_many; /* OPT_LIST full: the message, one %s: the argument */
  opt_topic topic;
  bool eval_only;   /* an eval/ knob: --help-all lists it, --help does not */
  const char *help; /* one paragraph; the help reflows it */
} opt_spec;

#define OPT_FIELD(type, member) \
  .offset = offsetof(type, member), .size = sizeof(((type *)0)->member)
#define OPT_GIVEN(type, member) .given = offsetof(type, member) + 1 /* 0: none */
#define OPT_SPECS(array) .specs = (array), .nspecs = sizeof(array) / sizeof((array)[0])
#define OPT_POSITIONAL(type, member, message) \
  .positional = offsetof(type, member) + 1, .second_positional = (message)
#define OPT_LIST_OF(type, array, count)                                    \
  .offset = offsetof(type, array), .count_offset = offsetof(type, count),  \
  .max_count = sizeof(((type *)0)->array) / sizeof(((type *)0)->array[0]), \
  .elem_size = sizeof(((type *)0)->array[0])

typedef struct opt_command opt_command;
struct opt_command {
  const char *name;         /* "run": the hint is (try 'symq run --help') */
  const char *error_prefix; /* before every message ("compare: "), or NULL */
  const char *usage;        /* the help's first lines */
  const char *about;        /* a paragraph after them, or NULL */
  const char *epilog;       /* after the options, or NULL */
  const char *value_sep;    /* between a long option and its value in the help: "=" when
                               NULL, or " " (--timeout S) */
  const opt_spec *specs;
  size_t nspecs;
  /* The arguments that are no option (and "-" when dash_is_positional): either the one
   * stored at OPT_POSITIONAL(struct, member, message), a second one being the error
   * `message` (one %s: it), or each handed to positional_call, which returns 0 or an exit
   * status after printing a message. */
  size_t positional; /* 1 + the offset of a const char *; 0: none */
  const char *second_positional;
  int (*positional_call)(const opt_command *c, void *target, const char *arg);
  bool dash_is_positional;
  /* The arguments after "--" (NULL: "--" is an unknown option); returns 0 or a status. */
  int (*rest)(void *target, int argc, char **argv);
};

/* Sets every entry's default in target, then parses argv[first..argc) into it, in order.
 * Returns 0, 1 when --help, --help-all or -h printed the help on stdout, or 2 after printing
 * a usage error. */
int opt_parse(const opt_command *c, int argc, char **argv, int first, void *target);
/* The help: usage, about, the options grouped by topic (with all, the eval/ ones too),
 * epilog; without all, a last line naming --help-all when it hides some option. */
void opt_print_help(const opt_command *c, FILE *f, bool all);
/* Prints `symq: error: PREFIX<fmt with what> (try 'symq NAME --help')`; returns 2. */
int opt_usage_error(const opt_command *c, const char *fmt, const char *what);

#endif
