/*
 * testcomp — the Test-Comp test suite of an output directory: turns the directory's ktest
 * files into the competition's exchange format (test-format 1.1, the testcase and
 * test-metadata DTDs shipped in test/testcomp/):
 *
 *     OUTDIR/test-suite/metadata.xml       what was tested, by whom, when
 *     OUTDIR/test-suite/test000001.xml     one per OUTDIR/test000001.ktest, same number
 *
 * A test case is the test vector of one path: one <input type="C TYPE">VALUE</input> per
 * __VERIFIER_nondet_X call, in call order. runtime/lib/svcomp.c makes each call one ktest
 * object named "nondet_X" of sizeof(X) bytes; testcomp_types below maps the name back to
 * the type and to how its bytes (little-endian) are printed:
 *   - integers in decimal, signed types as signed ("-1"), unsigned as unsigned; bool 0/1;
 *     __int128 in full; pointers as unsigned decimal addresses;
 *   - float and double with the fewest digits that read back exactly (%.9g, %.17g; "nan",
 *     "inf", "-inf" as C's strtod reads them);
 *   - "nondet_memory" (__VERIFIER_nondet_memory), and any object with a name not in the
 *     table (a klee_make_symbolic in a harness), one <input type="unsigned char"> per byte:
 *     the rules define nondet_memory as that many __VERIFIER_nondet_uchar calls.
 * A test whose path ended in reach_error (a testNNNNNN.reach_error.err, or any .err whose
 * stack passes through reach_error or __VERIFIER_error, as when the program defines
 * reach_error to call __assert_fail) is written <testcase coversError="true">.
 *
 * Contract
 *   - Reads OUTDIR's testNNNNNN.ktest files (in number order) and .err files; never changes
 *     them. Creates OUTDIR/test-suite if needed; each file is written whole to a temporary
 *     file and renamed, so a reader sees whole files only. Writing again overwrites.
 *   - Fails (returns -1, one line in err, always NUL-terminated when err_size > 0; err may
 *     be NULL) when OUTDIR or the program cannot be read, a ktest is malformed, an object
 *     named in the table has the wrong size, or a file cannot be written. Files already
 *     written stay.
 *   - Strings are borrowed for the call. Output depends only on the inputs (and the clock,
 *     unless opts->creation_time is set).
 */
#ifndef SYMQ_TESTCOMP_H
#define SYMQ_TESTCOMP_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* The two Test-Comp properties (the text of coverage-branches.prp / coverage-error-call.prp). */
#define TESTCOMP_SPEC_BRANCHES "COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )"
#define TESTCOMP_SPEC_ERROR_CALL "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )"

typedef enum testcomp_kind {
  TESTCOMP_SIGNED,   /* two's complement, 1/2/4/8/16 bytes */
  TESTCOMP_UNSIGNED, /* 1/2/4/8/16 bytes; also bool and pointers */
  TESTCOMP_FLOAT,    /* IEEE binary32 or binary64 */
  TESTCOMP_BYTES     /* any size: one unsigned char input per byte */
} testcomp_kind;

typedef struct testcomp_type {
  const char *name;  /* the ktest object name, "nondet_int" */
  const char *ctype; /* the <input type="..."> text: a C type every program can parse */
  uint32_t size;     /* bytes; 0 for TESTCOMP_BYTES (any size) */
  testcomp_kind kind;
} testcomp_type;

/* The table shared by convention with runtime/lib/svcomp.c (same names, same sizes). */
extern const testcomp_type testcomp_types[];
extern const size_t testcomp_num_types;

/* The row for a ktest object name, or NULL when the name is not an SV-COMP input. */
const testcomp_type *testcomp_type_find(const char *name);

/* Prints one value of type t (t->kind != TESTCOMP_BYTES; `bytes` holds t->size bytes)
 * into buf, NUL-terminated. Returns the length, or -1 when buf is too small (64 bytes are
 * always enough). */
int testcomp_format_value(const testcomp_type *t, const uint8_t *bytes, char *buf, size_t buf_size);

typedef struct testcomp_options {
  const char *program_path;   /* required: <programfile> as given; <programhash> its SHA-256 */
  const char *spec_text;      /* <specification>; NULL = TESTCOMP_SPEC_BRANCHES; trimmed */
  const char *producer;       /* NULL = "symq " SYMQ_VERSION */
  const char *entry_function; /* NULL = "main" */
  const char *architecture;   /* NULL = "64bit" */
  time_t creation_time;       /* 0 = now; written as UTC "YYYY-MM-DDTHH:MM:SSZ" */
} testcomp_options;

/* Writes OUTDIR/test-suite (see above). Returns 0, or -1 with a message in err. */
int testcomp_write_suite_opts(const char *outdir, const testcomp_options *opts, char *err,
                              size_t err_size);

/* The same with every option at its default but the program and the specification. */
int testcomp_write_suite(const char *outdir, const char *program_path, const char *spec_text,
                         char *err, size_t err_size);

/* Reads a property file (coverage-branches.prp ...) into a new malloc'd string, surrounding
 * white space removed. Returns NULL with a message in err when it cannot be read. */
char *testcomp_read_spec(const char *prp_path, char *err, size_t err_size);

/* SHA-256 of `len` bytes as 64 lower-case hex digits plus NUL in hex[65]. */
void testcomp_sha256_hex(const void *data, size_t len, char hex[65]);

#endif
