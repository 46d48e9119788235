/*
 * test_ktest.c — ktest files: the exact bytes written (checked against a hand-assembled
 * image), round trips, the older formats KLEE still reads (version 1, "BOUT\n"), rejection
 * of truncated and malformed files with a message naming the file and the offset, and the
 * exact listing of KLEE's ktest-tool.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include "check.h"
#include "engine/out/ktest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/symq-test-ktest-XXXXXX";

/* The big-endian u32 n as four bytes. */
#define U32(n) (uint8_t)((n) >> 24), (uint8_t)((n) >> 16), (uint8_t)((n) >> 8), (uint8_t)(n)

/* The ktest of sample(): written by hand from the format description. */
static const uint8_t expected_bytes[] = {
    'K',    'T',    'E',    'S',    'T',    U32(3), U32(2), /* numArgs */
    U32(9), 'p',    'r',    'o',    'g',    '.',    'b',    'c',    '.',  'x', U32(4), 'i',
    't',    '\'',   's',    U32(0), U32(0), /* symArgvs, symArgvLen */
    U32(4),                                 /* numObjects */
    U32(1), 'a',    U32(4), 0x00,   0x00,   0x00,   0x80,   U32(7), 'u',  'n', 'n',    'a',
    'm',    'e',    'd',    U32(2), 'A',    '\n',   U32(5), 'e',    'm',  'p', 't',    'y',
    U32(0), U32(3), 'b',    'i',    'n',    U32(6), 0x00,   0xff,   '\'', '"', '\\',   0x7f,
};

static uint8_t bytes_a[] = {0x00, 0x00, 0x00, 0x80};
static uint8_t bytes_unnamed[] = {'A', '\n'};
static uint8_t bytes_bin[] = {0x00, 0xff, '\'', '"', '\\', 0x7f};
static char *sample_args[] = {"prog.bc.x", "it's"};
static ktest_object sample_objects[] = {
    {"a", bytes_a, sizeof bytes_a},
    {NULL, bytes_unnamed, sizeof bytes_unnamed},
    {"empty", NULL, 0},
    {"bin", bytes_bin, sizeof bytes_bin},
};

static ktest sample(void) {
  ktest t = {0};
  t.num_args = 2;
  t.args = sample_args;
  t.num_objects = 4;
  t.objects = sample_objects;
  return t;
}

static char *path_in_tmp(const char *name) {
  static char path[4][256];
  static int next;
  char *p = path[next++ % 4];
  snprintf(p, sizeof path[0], "%s/%s", tmpdir, name);
  return p;
}

static uint8_t *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  uint8_t *buf = malloc(1 << 16);
  *len = fread(buf, 1, 1 << 16, f);
  fclose(f);
  return buf;
}

static void spill(const char *path, const uint8_t *data, size_t len) {
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (!f) return;
  CHECK_EQ_U64(fwrite(data, 1, len, f), len);
  fclose(f);
}

static void check_same_bytes(const uint8_t *got, size_t got_len, const uint8_t *want,
                             size_t want_len) {
  CHECK_EQ_U64(got_len, want_len);
  size_t n = got_len < want_len ? got_len : want_len;
  for (size_t i = 0; i < n; i++) {
    if (got[i] != want[i]) {
      fprintf(stderr, "    first difference at offset %zu: 0x%02x, expected 0x%02x\n", i, got[i],
              want[i]);
      CHECK(got[i] == want[i]);
      return;
    }
  }
}

static void test_exact_bytes(void) {
  ktest t = sample();
  char err[256] = "";
  uint8_t *buf;
  size_t len;
  CHECK_EQ_U64(ktest_encode(&t, &buf, &len, err, sizeof err), 0);
  check_same_bytes(buf, len, expected_bytes, sizeof expected_bytes);
  free(buf);

  const char *path = path_in_tmp("exact.ktest");
  CHECK_EQ_U64(ktest_write(path, &t, err, sizeof err), 0);
  CHECK_EQ_STR(err, "");
  uint8_t *file = slurp(path, &len);
  CHECK(file != NULL);
  if (file) check_same_bytes(file, len, expected_bytes, sizeof expected_bytes);
  free(file);

  /* sym_argvs / sym_argv_len are written as given; the version is always 3. */
  t.version = 1;
  t.sym_argvs = 0x01020304;
  t.sym_argv_len = 7;
  CHECK_EQ_U64(ktest_encode(&t, &buf, &len, err, sizeof err), 0);
  const uint8_t *p = buf + 5;
  CHECK(p[0] == 0 && p[1] == 0 && p[2] == 0 && p[3] == 3);
  p = buf + 5 + 4 + 4 + 4 + 9 + 4 + 4;
  CHECK(p[0] == 1 && p[1] == 2 && p[2] == 3 && p[3] == 4);
  CHECK(p[4] == 0 && p[5] == 0 && p[6] == 0 && p[7] == 7);
  free(buf);

  /* No arguments and no objects: the minimal file. */
  ktest empty = {0};
  static const uint8_t minimal[] = {'K',    'T',    'E',    'S',    'T',
                                    U32(3), U32(0), U32(0), U32(0), U32(0)};
  CHECK_EQ_U64(ktest_encode(&empty, &buf, &len, err, sizeof err), 0);
  check_same_bytes(buf, len, minimal, sizeof minimal);
  free(buf);
}

static void test_round_trip(void) {
  ktest t = sample();
  char err[256] = "";
  const char *path = path_in_tmp("round.ktest");
  CHECK_EQ_U64(ktest_write(path, &t, err, sizeof err), 0);
  ktest *r = ktest_read(path, err, sizeof err);
  CHECK(r != NULL);
  if (!r) {
    fprintf(stderr, "    %s\n", err);
    return;
  }
  CHECK_EQ_U64(r->version, 3);
  CHECK_EQ_STR(r->path, path);
  CHECK_EQ_U64(r->num_args, 2);
  CHECK_EQ_STR(r->args[0], "prog.bc.x");
  CHECK_EQ_STR(r->args[1], "it's");
  CHECK_EQ_U64(r->sym_argvs, 0);
  CHECK_EQ_U64(r->sym_argv_len, 0);
  CHECK_EQ_U64(r->num_objects, 4);
  const char *names[] = {"a", "unnamed", "empty", "bin"};
  for (uint32_t i = 0; i < 4 && i < r->num_objects; i++) {
    CHECK_EQ_STR(r->objects[i].name, names[i]);
    CHECK_EQ_U64(r->objects[i].num_bytes, sample_objects[i].num_bytes);
    if (r->objects[i].num_bytes == sample_objects[i].num_bytes && sample_objects[i].num_bytes)
      CHECK(memcmp(r->objects[i].bytes, sample_objects[i].bytes, sample_objects[i].num_bytes) == 0);
  }

  /* What was read writes back to the same bytes. */
  uint8_t *buf;
  size_t len;
  CHECK_EQ_U64(ktest_encode(r, &buf, &len, err, sizeof err), 0);
  check_same_bytes(buf, len, expected_bytes, sizeof expected_bytes);
  free(buf);
  ktest_free(r);
  ktest_free(NULL);
}

static void test_old_formats(void) {
  char err[256] = "";
  /* Version 1: no symArgvs / symArgvLen words. */
  static const uint8_t v1[] = {'K',    'T', 'E',    'S',    'T',  U32(1), U32(1),
                               U32(1), 'p', U32(2), U32(1), 'x',  U32(1), 0x2a,
                               U32(2), 'y', 'z',    U32(2), 0x01, 0x02};
  const char *path = path_in_tmp("v1.ktest");
  spill(path, v1, sizeof v1);
  ktest *t = ktest_read(path, err, sizeof err);
  CHECK(t != NULL);
  if (t) {
    CHECK_EQ_U64(t->version, 1);
    CHECK_EQ_U64(t->num_args, 1);
    CHECK_EQ_STR(t->args[0], "p");
    CHECK_EQ_U64(t->sym_argvs, 0);
    CHECK_EQ_U64(t->num_objects, 2);
    CHECK_EQ_STR(t->objects[0].name, "x");
    CHECK_EQ_U64(t->objects[0].num_bytes, 1);
    CHECK_EQ_U64(t->objects[0].bytes[0], 0x2a);
    CHECK_EQ_STR(t->objects[1].name, "yz");
    CHECK_EQ_U64(t->objects[1].bytes[1], 0x02);
    ktest_free(t);
  } else {
    fprintf(stderr, "    %s\n", err);
  }

  /* The legacy "BOUT\n" magic, version 2. */
  static const uint8_t bout[] = {'B',    'O',    'U',    'T', '\n', U32(2), U32(0), U32(5),
                                 U32(6), U32(1), U32(3), 'o', 'b',  'j',    U32(1), 0x07};
  path = path_in_tmp("old.bout");
  spill(path, bout, sizeof bout);
  t = ktest_read(path, err, sizeof err);
  CHECK(t != NULL);
  if (t) {
    CHECK_EQ_U64(t->version, 2);
    CHECK_EQ_U64(t->num_args, 0);
    CHECK_EQ_U64(t->sym_argvs, 5);
    CHECK_EQ_U64(t->sym_argv_len, 6);
    CHECK_EQ_U64(t->num_objects, 1);
    CHECK_EQ_STR(t->objects[0].name, "obj");
    CHECK_EQ_U64(t->objects[0].bytes[0], 0x07);
    ktest_free(t);
  } else {
    fprintf(stderr, "    %s\n", err);
  }
}

/* Reading `data` must fail with a message that contains every one of `needles`. */
static void expect_rejected(const char *name, const uint8_t *data, size_t len, const char *needle1,
                            const char *needle2) {
  char err[512] = "";
  const char *path = path_in_tmp(name);
  spill(path, data, len);
  ktest *t = ktest_read(path, err, sizeof err);
  CHECK(t == NULL);
  ktest_free(t);
  CHECK(strstr(err, path) == err); /* the message starts with the file name */
  if (needle1) CHECK(strstr(err, needle1) != NULL);
  if (needle2) CHECK(strstr(err, needle2) != NULL);
  if (!t && (strstr(err, path) != err || (needle1 && !strstr(err, needle1)) ||
             (needle2 && !strstr(err, needle2))))
    fprintf(stderr, "    message: %s\n", err);
}

static void test_rejected(void) {
  char err[512] = "";
  /* Every proper prefix of a valid file is truncated, and says so with an offset. */
  for (size_t cut = 0; cut < sizeof expected_bytes; cut++)
    expect_rejected("cut.ktest", expected_bytes, cut, "truncated", "offset");

  /* The exact message for a cut in the middle of the last object's bytes. */
  const char *path = path_in_tmp("cut.ktest");
  spill(path, expected_bytes, sizeof expected_bytes - 1);
  CHECK(ktest_read(path, err, sizeof err) == NULL);
  char want[512];
  snprintf(want, sizeof want,
           "%s: truncated ktest file: at offset %zu, the bytes of object 3 needs 6 bytes "
           "but only 5 remain",
           path, sizeof expected_bytes - 6);
  CHECK_EQ_STR(err, want);

  uint8_t bad[sizeof expected_bytes + 1];
  memcpy(bad, expected_bytes, sizeof expected_bytes);
  bad[3] = 'X'; /* "KTEXT" */
  expect_rejected("magic.ktest", bad, sizeof expected_bytes, "bad magic", "offset 0");
  expect_rejected("text.ktest", (const uint8_t *)"hello, world\n", 13, "bad magic", NULL);

  memcpy(bad, expected_bytes, sizeof expected_bytes);
  bad[8] = 4; /* version 4 */
  expect_rejected("v4.ktest", bad, sizeof expected_bytes, "version 4", "offset 5");
  bad[8] = 0; /* version 0 */
  expect_rejected("v0.ktest", bad, sizeof expected_bytes, "version 0", "offset 5");

  memcpy(bad, expected_bytes, sizeof expected_bytes);
  bad[sizeof expected_bytes] = 0; /* one byte too many */
  expect_rejected("long.ktest", bad, sizeof bad, "after the last object", "offset 106");

  /* A count far larger than the file is refused before anything is allocated. */
  static const uint8_t huge[] = {'K', 'T', 'E', 'S', 'T', U32(3), U32(0xffffffffu), U32(0)};
  expect_rejected("huge.ktest", huge, sizeof huge, "4294967295 arguments", "offset 9");
  static const uint8_t huge_obj[] = {'K',    'T',    'E',    'S',    'T', U32(3),          U32(0),
                                     U32(0), U32(0), U32(1), U32(1), 'x', U32(0x7fffffffu)};
  expect_rejected("huge_obj.ktest", huge_obj, sizeof huge_obj, "the bytes of object 0",
                  "offset 34");

  /* A file that is not there. */
  path = path_in_tmp("missing.ktest");
  CHECK(ktest_read(path, err, sizeof err) == NULL);
  CHECK(strstr(err, path) == err);
  CHECK(strstr(err, "cannot open") != NULL);
  CHECK(ktest_read(path, NULL, 0) == NULL); /* no buffer is fine */
}

static char *print_to_string(const ktest *t) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  ktest_print(f, t);
  fclose(f);
  return text;
}

static void test_print(void) {
  /* Read through a relative path, so that `ktest file` is the same on every run. */
  char old_cwd[4096];
  CHECK(getcwd(old_cwd, sizeof old_cwd) != NULL);
  CHECK_EQ_U64(chdir(tmpdir), 0);
  static char *args[] = {"/tmp/get_sign.bc", "it's", "a\tb\\"};
  static uint8_t b0[] = {0x00, 0x00, 0x00, 0x80};
  static uint8_t b1[] = {'A', '\n'};
  static uint8_t b3[] = {'\'', '"', '\\', 'z', '\r', 0x7f, 0xc3, 0xa9};
  static uint8_t b4[] = {0xff};
  static uint8_t b5[] = {'\'', 't'};
  static uint8_t b6[] = {'h', 'i', ' ', '~', 0x01};
  ktest_object objs[] = {{"a", b0, 4}, {NULL, b1, 2}, {"empty", NULL, 0}, {"bin", b3, 8},
                         {"c", b4, 1}, {"q", b5, 2},  {"s", b6, 5}};
  ktest t = {0};
  t.num_args = 3;
  t.args = args;
  t.num_objects = 7;
  t.objects = objs;
  char err[256] = "";
  CHECK_EQ_U64(ktest_write("print.ktest", &t, err, sizeof err), 0);
  ktest *r = ktest_read("print.ktest", err, sizeof err);
  CHECK(r != NULL);
  if (r) {
    char *text = print_to_string(r);
    CHECK_EQ_STR(text,
                 "ktest file : 'print.ktest'\n"
                 "args       : ['/tmp/get_sign.bc', \"it's\", 'a\\tb\\\\']\n"
                 "num objects: 7\n"
                 "object 0: name: 'a'\n"
                 "object 0: size: 4\n"
                 "object 0: data: b'\\x00\\x00\\x00\\x80'\n"
                 "object 0: hex : 0x00000080\n"
                 "object 0: int : -2147483648\n"
                 "object 0: uint: 2147483648\n"
                 "object 0: text: ....\n"
                 "object 1: name: 'unnamed'\n"
                 "object 1: size: 2\n"
                 "object 1: data: b'A\\n'\n"
                 "object 1: hex : 0x410a\n"
                 "object 1: int : 2625\n"
                 "object 1: uint: 2625\n"
                 "object 1: text: A.\n"
                 "object 2: name: 'empty'\n"
                 "object 2: size: 0\n"
                 "object 2: data: b''\n"
                 "object 2: hex : 0x\n"
                 "object 2: text: \n"
                 "object 3: name: 'bin'\n"
                 "object 3: size: 8\n"
                 "object 3: data: b'\\'\"\\\\z\\r\\x7f\\xc3\\xa9'\n"
                 "object 3: hex : 0x27225c7a0d7fc3a9\n"
                 "object 3: int : -6213983364976991705\n"
                 "object 3: uint: 12232760708732559911\n"
                 "object 3: text: '\"\\z....\n"
                 "object 4: name: 'c'\n"
                 "object 4: size: 1\n"
                 "object 4: data: b'\\xff'\n"
                 "object 4: hex : 0xff\n"
                 "object 4: int : -1\n"
                 "object 4: uint: 255\n"
                 "object 4: text: .\n"
                 "object 5: name: 'q'\n"
                 "object 5: size: 2\n"
                 "object 5: data: b\"'t\"\n"
                 "object 5: hex : 0x2774\n"
                 "object 5: int : 29735\n"
                 "object 5: uint: 29735\n"
                 "object 5: text: 't\n"
                 "object 6: name: 's'\n"
                 "object 6: size: 5\n"
                 "object 6: data: b'hi ~\\x01'\n"
                 "object 6: hex : 0x6869207e01\n"
                 "object 6: text: hi ~.\n");
    free(text);
    ktest_free(r);
  } else {
    fprintf(stderr, "    %s\n", err);
  }

  /* With 11 objects the indices are padded to two columns, as ktest-tool does; with 10
   * (the largest index 9) they are not. */
  ktest_object many[11];
  char names[11][4];
  for (int i = 0; i < 11; i++) {
    snprintf(names[i], sizeof names[i], "o%d", i);
    many[i] = (ktest_object){names[i], NULL, 0};
  }
  ktest m = {0};
  m.num_objects = 11;
  m.objects = many;
  char *text = print_to_string(&m);
  const char *head =
      "ktest file : ''\nargs       : []\nnum objects: 11\n"
      "object  0: name: 'o0'\nobject  0: size: 0\n";
  CHECK(strncmp(text, head, strlen(head)) == 0);
  CHECK(strstr(text, "\nobject 10: name: 'o10'\n") != NULL);
  CHECK(strstr(text, "\nobject  9: text: \nobject 10: name") != NULL);
  free(text);
  m.num_objects = 10;
  text = print_to_string(&m);
  CHECK(strstr(text, "\nnum objects: 10\nobject 0: name: 'o0'\n") != NULL);
  CHECK(strstr(text, "\nobject 9: text: \n") != NULL);
  free(text);

  CHECK_EQ_U64(chdir(old_cwd), 0);
}

int main(void) {
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return EXIT_FAILURE;
  }
  test_exact_bytes();
  test_round_trip();
  test_old_formats();
  test_rejected();
  test_print();
  if (!check_failed) { /* keep the files of a failed run for inspection */
    const char *files[] = {"exact.ktest", "round.ktest",    "v1.ktest",   "old.bout", "cut.ktest",
                           "magic.ktest", "text.ktest",     "v4.ktest",   "v0.ktest", "long.ktest",
                           "huge.ktest",  "huge_obj.ktest", "print.ktest"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) unlink(path_in_tmp(files[i]));
    CHECK_EQ_U64(rmdir(tmpdir), 0);
  }
  return check_exit();
}
