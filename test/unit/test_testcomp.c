/*
 * test_testcomp.c — the Test-Comp test-suite writer: value printing (signed types printed
 * signed, at every size up to __int128; floats that read back exactly), SHA-256 against the
 * FIPS 180-4 vectors, whole suites written from hand-made ktests compared byte for byte,
 * coversError from .err files, XML escaping, the failures (no directory, no program, an
 * object of the wrong size), and the table of nondet names checked against
 * runtime/lib/svcomp.c, whose names it must mirror.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include "check.h"
#include "engine/out/ktest.h"
#include "engine/out/testcomp.h"
#include "engine/core/version.h"

#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/symq-test-testcomp-XXXXXX";

/* ---- helpers --------------------------------------------------------------------------- */

static char *path_in(const char *dir, const char *name) {
  static char path[8][512];
  static int next;
  char *p = path[next++ % 8];
  int len = snprintf(p, sizeof path[0], "%s/%s", dir, name);
  if (len < 0 || (size_t)len >= sizeof path[0]) {
    fprintf(stderr, "test_testcomp: path too long: %s/%s\n", dir, name);
    exit(1);
  }
  return p;
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    perror(path);
    exit(1);
  }
  fputs(text, f);
  fclose(f);
}

/* The whole file, or NULL. Caller frees. */
static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  size_t len = 0, cap = 0, n;
  char chunk[4096];
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (len + n + 1 > cap) {
      cap = (len + n + 1) * 2;
      buf = realloc(buf, cap);
    }
    memcpy(buf + len, chunk, n);
    len += n;
  }
  fclose(f);
  if (!buf) buf = calloc(1, 1);
  buf[len] = 0;
  return buf;
}

static void write_ktest(const char *dir, const char *name, ktest_object *objects, uint32_t n) {
  static char *args[] = {"prog.c"};
  ktest t = {0};
  t.num_args = 1;
  t.args = args;
  t.num_objects = n;
  t.objects = objects;
  char err[256];
  if (ktest_write(path_in(dir, name), &t, err, sizeof err) != 0) {
    fprintf(stderr, "%s\n", err);
    exit(1);
  }
}

static int remove_tree(const char *path) {
  DIR *d = opendir(path);
  if (!d) return remove(path);
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char sub[1024];
    snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
    remove_tree(sub);
  }
  closedir(d);
  return rmdir(path);
}

/* ---- values ---------------------------------------------------------------------------- */

static const char *fmt(const char *name, const uint8_t *bytes) {
  static char buf[4][64];
  static int next;
  char *b = buf[next++ % 4];
  const testcomp_type *t = testcomp_type_find(name);
  if (!t) return "(no such type)";
  if (testcomp_format_value(t, bytes, b, 64) < 0) return "(too small)";
  return b;
}

static void test_values(void) {
  static const uint8_t ff[16] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  static const uint8_t min[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80};
  static const uint8_t min8[8] = {0, 0, 0, 0, 0, 0, 0, 0x80};
  static const uint8_t min4[4] = {0, 0, 0, 0x80};
  static const uint8_t min2[2] = {0, 0x80};
  static const uint8_t minus5[4] = {0xfb, 0xff, 0xff, 0xff};
  static const uint8_t zero[16] = {0};
  static const uint8_t b200[1] = {200};
  static const uint8_t one[1] = {1};
  static const uint8_t addr[8] = {0x00, 0x10, 0, 0, 0, 0, 0, 0};

  /* signed types printed signed, unsigned ones unsigned, at every size */
  CHECK_EQ_STR(fmt("nondet_char", ff), "-1");
  CHECK_EQ_STR(fmt("nondet_char", min + 15), "-128");
  CHECK_EQ_STR(fmt("nondet_uchar", ff), "255");
  CHECK_EQ_STR(fmt("nondet_uchar", b200), "200");
  CHECK_EQ_STR(fmt("nondet_u8", b200), "200");
  CHECK_EQ_STR(fmt("nondet_bool", one), "1");
  CHECK_EQ_STR(fmt("nondet_bool", zero), "0");
  CHECK_EQ_STR(fmt("nondet_short", min2), "-32768");
  CHECK_EQ_STR(fmt("nondet_ushort", ff), "65535");
  CHECK_EQ_STR(fmt("nondet_u16", min2), "32768");
  CHECK_EQ_STR(fmt("nondet_int", minus5), "-5");
  CHECK_EQ_STR(fmt("nondet_int", min4), "-2147483648");
  CHECK_EQ_STR(fmt("nondet_int", zero), "0");
  CHECK_EQ_STR(fmt("nondet_uint", minus5), "4294967291");
  CHECK_EQ_STR(fmt("nondet_unsigned", ff), "4294967295");
  CHECK_EQ_STR(fmt("nondet_u32", min4), "2147483648");
  CHECK_EQ_STR(fmt("nondet_long", min8), "-9223372036854775808");
  CHECK_EQ_STR(fmt("nondet_longlong", ff), "-1");
  CHECK_EQ_STR(fmt("nondet_loff_t", min8), "-9223372036854775808");
  CHECK_EQ_STR(fmt("nondet_ulong", ff), "18446744073709551615");
  CHECK_EQ_STR(fmt("nondet_ulonglong", min8), "9223372036854775808");
  CHECK_EQ_STR(fmt("nondet_size_t", ff), "18446744073709551615");
  CHECK_EQ_STR(fmt("nondet_sector_t", addr), "4096");
  CHECK_EQ_STR(fmt("nondet_pthread_t", addr), "4096");
  CHECK_EQ_STR(fmt("nondet_u64", ff), "18446744073709551615");
  CHECK_EQ_STR(fmt("nondet_pointer", addr), "4096");
  CHECK_EQ_STR(fmt("nondet_pchar", zero), "0");
  CHECK_EQ_STR(fmt("nondet_int128", ff), "-1");
  CHECK_EQ_STR(fmt("nondet_int128", min), "-170141183460469231731687303715884105728");
  CHECK_EQ_STR(fmt("nondet_int128", zero), "0");
  CHECK_EQ_STR(fmt("nondet_uint128", ff), "340282366920938463463374607431768211455");
  CHECK_EQ_STR(fmt("nondet_uint128", min), "170141183460469231731687303715884105728");

  /* floats: the shortest decimal that reads back exactly, as strtod reads it */
  float f = 0.1f, fneg = -2.5f, fnan = NAN;
  double d = 0.1, dinf = -INFINITY, dbig = 1e300;
  uint8_t fb[4], db[8];
  memcpy(fb, &f, 4);
  CHECK_EQ_STR(fmt("nondet_float", fb), "0.100000001");
  CHECK(strtof(fmt("nondet_float", fb), NULL) == f);
  memcpy(fb, &fneg, 4);
  CHECK_EQ_STR(fmt("nondet_float", fb), "-2.5");
  memcpy(fb, &fnan, 4);
  CHECK_EQ_STR(fmt("nondet_float", fb), "nan");
  memcpy(db, &d, 8);
  CHECK_EQ_STR(fmt("nondet_double", db), "0.10000000000000001");
  CHECK(strtod(fmt("nondet_double", db), NULL) == d);
  memcpy(db, &dinf, 8);
  CHECK_EQ_STR(fmt("nondet_double", db), "-inf");
  memcpy(db, &dbig, 8);
  CHECK_EQ_STR(fmt("nondet_double", db), "1.0000000000000001e+300");
  CHECK(strtod(fmt("nondet_double", db), NULL) == dbig);
  CHECK_EQ_STR(fmt("nondet_double", zero), "0");

  /* a buffer too small is refused, not overrun */
  char small[3];
  CHECK_EQ_U64(testcomp_format_value(testcomp_type_find("nondet_int"), minus5, small, 3), 2);
  CHECK_EQ_STR(small, "-5");
  CHECK(testcomp_format_value(testcomp_type_find("nondet_int"), min4, small, 3) < 0);

  CHECK(testcomp_type_find("x") == NULL);
  CHECK(testcomp_type_find(NULL) == NULL);
  CHECK(testcomp_type_find("nondet_memory")->kind == TESTCOMP_BYTES);
}

/* ---- SHA-256 --------------------------------------------------------------------------- */

static const char *sha(const void *data, size_t len) {
  static char hex[65];
  testcomp_sha256_hex(data, len, hex);
  return hex;
}

static void test_sha256(void) {
  CHECK_EQ_STR(sha("", 0), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK_EQ_STR(sha("abc", 3), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  /* 56 bytes: the length no longer fits in the first padding block */
  const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  CHECK_EQ_STR(sha(two, strlen(two)),
               "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  const char *four =
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
      "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
  CHECK_EQ_STR(sha(four, strlen(four)),
               "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  char *million = malloc(1000000);
  memset(million, 'a', 1000000);
  CHECK_EQ_STR(sha(million, 1000000),
               "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  free(million);
}

/* ---- whole suites ---------------------------------------------------------------------- */

#define DECL "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
#define TESTCASE_DOCTYPE                                                                 \
  "<!DOCTYPE testcase PUBLIC \"+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN\" " \
  "\"https://sosy-lab.org/test-format/testcase-1.1.dtd\">\n"
#define METADATA_DOCTYPE                                                                 \
  "<!DOCTYPE test-metadata PUBLIC \"+//IDN sosy-lab.org//DTD test-format test-metadata " \
  "1.1//EN\" \"https://sosy-lab.org/test-format/test-metadata-1.1.dtd\">\n"

static void check_file(const char *path, const char *expected) {
  char *got = slurp(path);
  CHECK(got != NULL);
  if (!got) {
    fprintf(stderr, "    missing %s\n", path);
    return;
  }
  CHECK_EQ_STR(got, expected);
  free(got);
}

static void test_suite(void) {
  char dir[600];
  snprintf(dir, sizeof dir, "%s/suite", tmpdir);
  CHECK_EQ_U64(mkdir(dir, 0777), 0);
  char program[600];
  snprintf(program, sizeof program, "%s/prog.c", tmpdir);
  write_text(program, "abc"); /* SHA-256 "abc" = ba7816bf... */

  uint8_t minus5[4] = {0xfb, 0xff, 0xff, 0xff}, c200[1] = {200}, one[1] = {1};
  ktest_object t1[] = {
      {"nondet_int", minus5, 4}, {"nondet_uchar", c200, 1}, {"nondet_bool", one, 1}};
  write_ktest(dir, "test000001.ktest", t1, 3);

  uint8_t seven[4] = {7, 0, 0, 0}, mem[3] = {0, 128, 255}, raw[2] = {1, 2};
  ktest_object t2[] = {{"nondet_int", seven, 4}, {"nondet_memory", mem, 3}, {"x", raw, 2}};
  write_ktest(dir, "test000002.ktest", t2, 3);
  write_text(path_in(dir, "test000002.reach_error.err"), "Error: reach_error() called\n");

  uint8_t llmin[8] = {0, 0, 0, 0, 0, 0, 0, 0x80}, ulmax[8], i128[16], dbl[8];
  memset(ulmax, 0xff, 8);
  memset(i128, 0xff, 16);
  double d = 0.1;
  memcpy(dbl, &d, 8);
  ktest_object t3[] = {{"nondet_longlong", llmin, 8},
                       {"nondet_ulong", ulmax, 8},
                       {"nondet_int128", i128, 16},
                       {"nondet_double", dbl, 8}};
  write_ktest(dir, "test000003.ktest", t3, 4);
  /* SV-COMP's own reach_error calls __assert_fail: an assert error inside reach_error */
  write_text(path_in(dir, "test000003.assert.err"),
             "Error: ASSERTION FAIL: 0\nFile: prog.c\nLine: 3\nassembly.ll line: 0\n"
             "State: 1\nStack: \n\t#000000000 in reach_error () at prog.c:3\n"
             "\t#100000000 in main () at prog.c:9\n");

  write_ktest(dir, "test000004.ktest", NULL, 0);
  /* an error elsewhere does not cover reach_error; neither does an unrelated file */
  write_text(path_in(dir, "test000004.ptr.err"),
             "Error: memory error: null pointer\nStack: \n\t#000000000 in main () at p.c:2\n");
  write_text(path_in(dir, "test000004.early"), "reach_error\n");

  /* numbered past 999999: seven digits, still in order */
  write_ktest(dir, "test1000000.ktest", t1, 1);

  testcomp_options o = {.program_path = program,
                        .spec_text = "\n  " TESTCOMP_SPEC_ERROR_CALL "\n",
                        .creation_time = 1700000000};
  char err[512] = "untouched";
  CHECK_EQ_U64(testcomp_write_suite_opts(dir, &o, err, sizeof err), 0);
  CHECK_EQ_STR(err, "");

  char suite[700];
  snprintf(suite, sizeof suite, "%s/test-suite", dir);
  char expected_meta[2048];
  snprintf(expected_meta, sizeof expected_meta,
           DECL METADATA_DOCTYPE
           "<test-metadata>\n"
           "  <sourcecodelang>C</sourcecodelang>\n"
           "  <producer>symq " SYMQ_VERSION
           "</producer>\n"
           "  <specification>COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )"
           "</specification>\n"
           "  <programfile>%s</programfile>\n"
           "  <programhash>ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
           "</programhash>\n"
           "  <entryfunction>main</entryfunction>\n"
           "  <architecture>64bit</architecture>\n"
           "  <creationtime>2023-11-14T22:13:20Z</creationtime>\n"
           "</test-metadata>\n",
           program);
  check_file(path_in(suite, "metadata.xml"), expected_meta);
  check_file(path_in(suite, "test000001.xml"), DECL TESTCASE_DOCTYPE
             "<testcase>\n"
             "  <input type=\"int\">-5</input>\n"
             "  <input type=\"unsigned char\">200</input>\n"
             "  <input type=\"_Bool\">1</input>\n"
             "</testcase>\n");
  check_file(path_in(suite, "test000002.xml"), DECL TESTCASE_DOCTYPE
             "<testcase coversError=\"true\">\n"
             "  <input type=\"int\">7</input>\n"
             "  <input type=\"unsigned char\">0</input>\n"
             "  <input type=\"unsigned char\">128</input>\n"
             "  <input type=\"unsigned char\">255</input>\n"
             "  <input type=\"unsigned char\">1</input>\n"
             "  <input type=\"unsigned char\">2</input>\n"
             "</testcase>\n");
  check_file(path_in(suite, "test000003.xml"), DECL TESTCASE_DOCTYPE
             "<testcase coversError=\"true\">\n"
             "  <input type=\"long long\">-9223372036854775808</input>\n"
             "  <input type=\"unsigned long\">18446744073709551615</input>\n"
             "  <input type=\"__int128\">-1</input>\n"
             "  <input type=\"double\">0.10000000000000001</input>\n"
             "</testcase>\n");
  check_file(path_in(suite, "test000004.xml"), DECL TESTCASE_DOCTYPE "<testcase>\n</testcase>\n");
  check_file(path_in(suite, "test1000000.xml"),
             DECL TESTCASE_DOCTYPE "<testcase>\n  <input type=\"int\">-5</input>\n</testcase>\n");

  /* nothing else in the suite (no temporary files left) */
  DIR *listing = opendir(suite);
  unsigned files = 0;
  struct dirent *e;
  while (listing && (e = readdir(listing)))
    if (e->d_name[0] != '.') files++;
    else
      CHECK(!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."));
  if (listing) closedir(listing);
  CHECK_EQ_U64(files, 6);

  /* written again (another time, the default spec): overwritten in place */
  o.spec_text = NULL;
  o.creation_time = 0;
  o.producer = "tester 1 & 2";
  CHECK_EQ_U64(testcomp_write_suite_opts(dir, &o, err, sizeof err), 0);
  char *meta = slurp(path_in(suite, "metadata.xml"));
  CHECK(meta && strstr(meta, "<specification>" TESTCOMP_SPEC_BRANCHES "</specification>"));
  CHECK(meta && strstr(meta, "<producer>tester 1 &amp; 2</producer>"));
  CHECK(meta && !strstr(meta, "2023-11-14"));
  free(meta);
}

/* Paths and specifications with XML's special characters, control characters and bytes
 * that are not UTF-8 still give well-formed documents. */
static void test_escaping(void) {
  char dir[600];
  snprintf(dir, sizeof dir, "%s/escape", tmpdir);
  CHECK_EQ_U64(mkdir(dir, 0777), 0);
  char program[700];
  snprintf(program, sizeof program, "%s/a&b<c>\"d\"\xc3\xa9\xff.c", dir);
  write_text(program, "int main(void) { return 0; }\n");
  testcomp_options o = {
      .program_path = program, .spec_text = "A<B & \x01 \xe2\x82\xac", .creation_time = 1};
  char err[512];
  CHECK_EQ_U64(testcomp_write_suite_opts(dir, &o, err, sizeof err), 0);
  char *meta = slurp(path_in(dir, "test-suite/metadata.xml"));
  CHECK(meta && strstr(meta, "a&amp;b&lt;c&gt;&quot;d&quot;\xc3\xa9?.c</programfile>"));
  CHECK(meta && strstr(meta, "<specification>A&lt;B &amp; ? \xe2\x82\xac</specification>"));
  CHECK(meta && strstr(meta, "<creationtime>1970-01-01T00:00:01Z</creationtime>"));
  free(meta);
}

static void test_failures(void) {
  char program[600];
  snprintf(program, sizeof program, "%s/prog.c", tmpdir);
  char err[512];

  /* no such output directory */
  char missing[600];
  snprintf(missing, sizeof missing, "%s/no-such-dir", tmpdir);
  CHECK_EQ_U64(testcomp_write_suite(missing, program, NULL, err, sizeof err), (uint64_t)-1);
  CHECK(strstr(err, missing) != NULL);
  CHECK(strstr(err, "cannot open directory") != NULL);
  CHECK(access(path_in(missing, "test-suite"), F_OK) != 0);
  CHECK_EQ_U64(testcomp_write_suite(missing, program, NULL, NULL, 0), (uint64_t)-1);

  /* no such program */
  char dir[600];
  snprintf(dir, sizeof dir, "%s/fail", tmpdir);
  CHECK_EQ_U64(mkdir(dir, 0777), 0);
  CHECK_EQ_U64(testcomp_write_suite(dir, path_in(tmpdir, "nope.c"), NULL, err, sizeof err),
               (uint64_t)-1);
  CHECK(strstr(err, "nope.c: cannot open") != NULL);

  /* an object named as an SV-COMP input with the wrong size */
  uint8_t two[2] = {0, 0};
  ktest_object bad[] = {{"nondet_int", two, 2}};
  write_ktest(dir, "test000001.ktest", bad, 1);
  CHECK_EQ_U64(testcomp_write_suite(dir, program, NULL, err, sizeof err), (uint64_t)-1);
  CHECK(strstr(err, "test000001.ktest") && strstr(err, "\"nondet_int\" has 2 bytes"));
  CHECK(access(path_in(dir, "test-suite/test000001.xml"), F_OK) != 0);

  /* a malformed ktest */
  write_text(path_in(dir, "test000001.ktest"), "KTEST");
  CHECK_EQ_U64(testcomp_write_suite(dir, program, NULL, err, sizeof err), (uint64_t)-1);
  CHECK(strstr(err, "test000001.ktest") != NULL);

  /* test-suite exists but is a file */
  char dir2[600];
  snprintf(dir2, sizeof dir2, "%s/fail2", tmpdir);
  CHECK_EQ_U64(mkdir(dir2, 0777), 0);
  write_text(path_in(dir2, "test-suite"), "");
  CHECK_EQ_U64(testcomp_write_suite(dir2, program, NULL, err, sizeof err), (uint64_t)-1);
  CHECK(strstr(err, "test-suite") != NULL);

  /* an empty directory: metadata only */
  char dir3[600];
  snprintf(dir3, sizeof dir3, "%s/empty", tmpdir);
  CHECK_EQ_U64(mkdir(dir3, 0777), 0);
  CHECK_EQ_U64(testcomp_write_suite(dir3, program, TESTCOMP_SPEC_ERROR_CALL, err, sizeof err), 0);
  CHECK(access(path_in(dir3, "test-suite/metadata.xml"), F_OK) == 0);
}

static void test_read_spec(void) {
  const char *prp = path_in(tmpdir, "coverage-error-call.prp");
  write_text(prp, TESTCOMP_SPEC_ERROR_CALL "\n\n");
  char err[256];
  char *spec = testcomp_read_spec(prp, err, sizeof err);
  CHECK_EQ_STR(spec, TESTCOMP_SPEC_ERROR_CALL);
  free(spec);
  CHECK(testcomp_read_spec(path_in(tmpdir, "missing.prp"), err, sizeof err) == NULL);
  CHECK(strstr(err, "missing.prp") != NULL);
}

/* Every "nondet_X" object svcomp.c creates has a row here, and every row (but the ones
 * only svcomp.c's macro spells) is created there: the convention that keeps the two files
 * in step. */
static void test_table_matches_runtime(void) {
  char *src = slurp(SYMQ_SOURCE_DIR "/runtime/lib/svcomp.c");
  CHECK(src != NULL);
  if (!src) return;
  /* names in svcomp.c: SVCOMP_NONDET(X, T) rows make "nondet_X"; literals "nondet_..." */
  char names[64][48];
  size_t n = 0;
  for (const char *p = src; (p = strstr(p, "SVCOMP_NONDET(")) && n < 64; p++) {
    p += strlen("SVCOMP_NONDET(");
    size_t len = strcspn(p, ",)");
    if (p[len] != ',' || len == 0 || len > 30 || !strncmp(p, "NAME", 4)) continue;
    snprintf(names[n++], sizeof names[0], "nondet_%.*s", (int)len, p);
  }
  for (const char *p = src; (p = strstr(p, "\"nondet_")) && n < 64; p++) {
    size_t len = strcspn(p + 1, "\"");
    if (len > 40 || p[len + 1] != '"' || p[len] == '_') continue; /* "nondet_" #NAME */
    snprintf(names[n++], sizeof names[0], "%.*s", (int)len, p + 1);
  }
  CHECK(n >= 27);
  for (size_t k = 0; k < n; k++) {
    bool found = testcomp_type_find(names[k]) != NULL;
    CHECK(found);
    if (!found) fprintf(stderr, "    svcomp.c makes %s, which testcomp_types lacks\n", names[k]);
  }
  for (size_t k = 0; k < testcomp_num_types; k++) {
    bool found = false;
    for (size_t j = 0; j < n; j++) found |= strcmp(names[j], testcomp_types[k].name) == 0;
    CHECK(found);
    if (!found)
      fprintf(stderr, "    testcomp_types has %s, which svcomp.c never makes\n",
              testcomp_types[k].name);
    const testcomp_type *t = &testcomp_types[k];
    CHECK(t->kind == TESTCOMP_BYTES
              ? t->size == 0
              : t->size == 1 || t->size == 2 || t->size == 4 || t->size == 8 || t->size == 16);
    CHECK(t->kind != TESTCOMP_FLOAT || t->size == 4 || t->size == 8);
  }
  free(src);
}

int main(void) {
  if (!mkdtemp(tmpdir)) {
    perror(tmpdir);
    return 1;
  }
  test_values();
  test_sha256();
  test_suite();
  test_escaping();
  test_failures();
  test_read_spec();
  test_table_matches_runtime();
  if (check_failed == 0) CHECK_EQ_U64(remove_tree(tmpdir), 0);
  else
    fprintf(stderr, "files kept in %s\n", tmpdir);
  return check_exit();
}
