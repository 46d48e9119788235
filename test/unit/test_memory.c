/*
 * test_memory — the executor's memory model: addresses, copy-on-write between forked
 * spaces, the byte cache and the array view. The core is a differential test: random
 * sequences of constant- and symbolic-offset writes on forked spaces, where every read is
 * evaluated under random assignments and compared with a plain byte-array simulation.
 */
#include "engine/core/memory.h"

#include "check.h"

static uint64_t rng_state = 0x5eed5eed5eedULL;
static uint64_t rnd(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static u128 eval_under(expr *e, const expr_assignment *m) {
  u128 v = 0;
  CHECK(expr_eval(e, m, 1000, &v) == EXPR_EVAL_OK);
  return v;
}

static void test_allocator(void) {
  mem_allocator a;
  mem_allocator_init(&a);
  uint64_t g1 = mem_allocator_take(&a, MEM_GLOBAL, 10, 1);
  uint64_t g2 = mem_allocator_take(&a, MEM_GLOBAL, 4, 64);
  uint64_t h1 = mem_allocator_take(&a, MEM_HEAP, 0, 1);
  uint64_t h2 = mem_allocator_take(&a, MEM_HEAP, 8, 1);
  CHECK(g1 % 16 == 0 && g2 % 64 == 0);
  CHECK(g2 > g1 + 10); /* a red zone: one past the end of g1 is not g2 */
  CHECK(h2 > h1);      /* zero-sized objects still get distinct addresses */
  CHECK(h1 > g2 && g1 >= 0x10000);
}

static void test_find_and_unbind(void) {
  mem_space *s = mem_space_new();
  mem_object *a = mem_object_new(1, 0x1000, 8, NULL, MEM_GLOBAL, "a");
  mem_object *b = mem_object_new(2, 0x2000, 4, NULL, MEM_HEAP, "b");
  mem_object *z = mem_object_new(3, 0x3000, 0, NULL, MEM_HEAP, "z");
  mem_space_bind(s, b, NULL);
  mem_space_bind(s, a, NULL);
  mem_space_bind(s, z, NULL);
  CHECK_EQ_U64(mem_space_count(s), 3);
  CHECK_EQ_PTR(mem_space_object_at(s, 0), a); /* kept in address order */
  CHECK_EQ_PTR(mem_space_find(s, 0x1000), a);
  CHECK_EQ_PTR(mem_space_find(s, 0x1007), a);
  CHECK_EQ_PTR(mem_space_find(s, 0x1008), NULL);
  CHECK_EQ_PTR(mem_space_find(s, 0x2003), b);
  CHECK_EQ_PTR(mem_space_find(s, 0x3000), NULL); /* malloc(0): nothing to dereference */
  CHECK_EQ_PTR(mem_space_find(s, 0xfff), NULL);
  CHECK_EQ_PTR(mem_space_find_id(s, 2), b);
  mem_space *fork = mem_space_clone(s);
  CHECK(mem_space_unbind(fork, a));
  CHECK(!mem_space_unbind(fork, a));
  CHECK_EQ_PTR(mem_space_find(fork, 0x1000), NULL);
  CHECK_EQ_PTR(mem_space_find(s, 0x1000), a); /* the original keeps it */
  mem_space_free(fork);
  mem_space_free(s);
  mem_object_unref(a);
  mem_object_unref(b);
  mem_object_unref(z);
}

static void test_concrete_and_cow(void) {
  mem_space *s = mem_space_new();
  const uint8_t init[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  mem_object *o = mem_object_new(1, 0x1000, 8, NULL, MEM_GLOBAL, "g");
  mem_space_bind(s, o, init);
  expr *off2 = expr_const(64, 2);
  expr *r = mem_read(s, o, off2, 4);
  CHECK(expr_is_const(r) && r->u.value == 0x06050403); /* little-endian */
  expr_unref(r);

  mem_space *fork = mem_space_clone(s);
  expr *v = expr_const(16, 0xbeef);
  uint64_t copies = mem_get_stats().copies_on_write;
  mem_write(fork, o, off2, v);
  CHECK_EQ_U64(mem_get_stats().copies_on_write, copies + 1);
  r = mem_read(fork, o, off2, 2);
  CHECK(expr_is_const(r) && r->u.value == 0xbeef);
  expr_unref(r);
  r = mem_read(s, o, off2, 2);
  CHECK(expr_is_const(r) && r->u.value == 0x0403); /* the original is untouched */
  expr_unref(r);
  mem_write(fork, o, off2, v); /* private now: no second copy */
  CHECK_EQ_U64(mem_get_stats().copies_on_write, copies + 1);

  uint8_t bytes[4];
  CHECK(mem_read_concrete(fork, o, 1, bytes, 4));
  CHECK(bytes[0] == 2 && bytes[1] == 0xef && bytes[2] == 0xbe && bytes[3] == 5);
  CHECK(!mem_read_concrete(fork, o, 6, bytes, 4)); /* past the end */
  expr_unref(v);
  expr_unref(off2);
  mem_space_free(fork);
  mem_space_free(s);
  mem_object_unref(o);
}

static void test_symbolic_object(void) {
  mem_space *s = mem_space_new();
  expr *size = expr_const(64, 8);
  expr_array *in = expr_array_new("buf", size, 8, true, NULL);
  mem_object *o = mem_object_new(1, 0x4000, 8, NULL, MEM_HEAP, "buf");
  mem_space_bind_symbolic(s, o, in);
  expr *off = expr_const(64, 4);
  expr *r = mem_read(s, o, off, 4);
  /* four adjacent input bytes come back as one wide read of the input array */
  CHECK(r->kind == EXPR_READ && r->width == 32 && r->u.read.array == in);
  uint8_t bytes[1];
  CHECK(!mem_read_concrete(s, o, 0, bytes, 1));
  expr_unref(r);
  expr_unref(off);
  expr_unref(size);
  expr_array_unref(in);
  mem_space_free(s);
  mem_object_unref(o);
}

/* A write at a merged pointer, an ite over constant offsets: a guarded write at each cell
 * (no write at a symbolic offset counted, the bytes still cached), every byte read back
 * equal, on every assignment of the guards, to a write at the offset the guards select. A
 * leaf past the object writes at the symbolic offset, as before. */
static void test_merged_offset(void) {
  mem_space *s = mem_space_new();
  expr *size = expr_const(64, 8), *gsize = expr_const(64, 2);
  expr_array *in = expr_array_new("buf", size, 8, true, NULL);
  expr_array *gs = expr_array_new("g", gsize, 8, true, NULL);
  mem_object *o = mem_object_new(1, 0x4000, 8, NULL, MEM_HEAP, "buf");
  mem_space_bind_symbolic(s, o, in);
  expr *g[2], *at[3];
  for (unsigned k = 0; k < 2; k++) {
    expr *i = expr_const(64, k), *one = expr_const(8, 1), *r = expr_read(gs, NULL, i);
    g[k] = expr_eq(r, one);
    expr_unref(r);
    expr_unref(one);
    expr_unref(i);
  }
  for (unsigned k = 0; k < 3; k++) at[k] = expr_const(64, (uint64_t[]){2, 5, 7}[k]);
  expr *inner = expr_ite(g[1], at[1], at[0]), *off = expr_ite(g[0], at[0], inner);
  expr *value = expr_const(16, 0xbeef);
  uint64_t before = mem_get_stats().symbolic_writes;
  mem_write(s, o, off, value);
  CHECK_EQ_U64(mem_get_stats().symbolic_writes, before);
  for (unsigned gbits = 0; gbits < 4; gbits++) {
    uint8_t bytes[8], gb[2] = {gbits & 1, gbits >> 1 & 1};
    for (unsigned i = 0; i < 8; i++) bytes[i] = (uint8_t)(0x40 + i);
    expr_assignment *m = expr_assignment_new();
    expr_assignment_set(m, in, bytes, 8);
    expr_assignment_set(m, gs, gb, 2);
    unsigned where = gb[0] ? 2 : gb[1] ? 5 : 2;
    bytes[where] = 0xef;
    bytes[where + 1] = 0xbe;
    for (unsigned i = 0; i < 8; i++) {
      expr *c = expr_const(64, i), *r = mem_read(s, o, c, 1);
      CHECK_EQ_U64(eval_under(r, m), bytes[i]);
      expr_unref(r);
      expr_unref(c);
    }
    expr_assignment_free(m);
  }
  expr *far = expr_ite(g[0], at[0], at[2]); /* 7: a 2-byte write would pass the end */
  mem_write(s, o, far, value);
  CHECK_EQ_U64(mem_get_stats().symbolic_writes, before + 1);
  expr_unref(far);
  expr_unref(value);
  expr_unref(off);
  expr_unref(inner);
  for (unsigned k = 0; k < 3; k++) expr_unref(at[k]);
  for (unsigned k = 0; k < 2; k++) expr_unref(g[k]);
  expr_unref(gsize);
  expr_unref(size);
  expr_array_unref(gs);
  expr_array_unref(in);
  mem_space_free(s);
  mem_object_unref(o);
}

/* The differential test. Each round: a symbolic object and a concrete one, forked spaces,
 * random writes at constant offsets and at offsets read from an input array `idx`; then, for
 * random assignments of (buf, idx), every byte read from memory must evaluate to what the
 * simulation computes. */
enum { CAP = 12, WRITES = 24, ASSIGNMENTS = 8, ROUNDS = 150 };

typedef struct op {
  bool symbolic_offset, symbolic_value;
  unsigned slot;  /* which idx byte gives the offset, or the constant offset */
  unsigned width; /* bytes */
  uint64_t value; /* concrete value, or which buf byte (+ the value as an addend) */
} op;

static void simulate(const op *ops, size_t n, const uint8_t *buf, const uint8_t *idx,
                     bool symbolic_object, uint8_t *out) {
  for (unsigned i = 0; i < CAP; i++) out[i] = symbolic_object ? buf[i] : (uint8_t)(i * 7);
  for (size_t k = 0; k < n; k++) {
    unsigned at =
        ops[k].symbolic_offset ? idx[ops[k].slot] % (CAP - ops[k].width + 1) : ops[k].slot;
    for (unsigned b = 0; b < ops[k].width; b++) {
      uint8_t v = ops[k].symbolic_value ? (uint8_t)(buf[ops[k].value % CAP] + b)
                                        : (uint8_t)(ops[k].value >> (8 * b));
      out[at + b] = v;
    }
  }
}

/* mem_bytes_differing agrees with reading every byte (what a merge did before it): a byte it
 * leaves unflagged reads as one expression in every space; where every space keeps its
 * bytes cached (no write at a symbolic offset) it flags exactly the bytes that read as
 * different expressions, and otherwise every byte. */
static void check_bytes_differing(mem_space *parent, mem_space *child, const mem_object *o,
                                  const op *ops) {
  bool cached = true;
  for (size_t k = 0; k < WRITES; k++) cached &= !ops[k].symbolic_offset;
  mem_space *spaces[] = {parent, child, child};
  for (size_t n = 1; n <= 3; n++) {
    bool differ[CAP];
    uint64_t flagged = mem_bytes_differing(spaces, n, o, differ), counted = 0;
    for (unsigned i = 0; i < CAP; i++) {
      expr *off = expr_const(64, i);
      expr *rp = mem_read(parent, o, off, 1), *rc = mem_read(child, o, off, 1);
      bool same = n == 1 || rp == rc;
      if (!differ[i]) CHECK(same);
      if (cached) CHECK(differ[i] == !same);
      else if (n > 1)
        CHECK(differ[i]);
      counted += differ[i];
      expr_unref(off);
      expr_unref(rp);
      expr_unref(rc);
    }
    CHECK_EQ_U64(flagged, counted);
  }
}

static void test_differential(void) {
  unsigned compared = 0;
  for (unsigned round = 0; round < ROUNDS; round++) {
    bool symbolic_object = round % 2;
    expr *cap = expr_const(64, CAP);
    expr_array *buf = expr_array_new("buf", cap, CAP, true, NULL);
    expr_array *idx = expr_array_new("idx", cap, CAP, true, NULL);
    mem_object *o = mem_object_new(1, 0x8000, CAP, NULL, MEM_HEAP, "o");
    mem_space *parent = mem_space_new();
    uint8_t init[CAP];
    for (unsigned i = 0; i < CAP; i++) init[i] = (uint8_t)(i * 7);
    if (symbolic_object) mem_space_bind_symbolic(parent, o, buf);
    else
      mem_space_bind(parent, o, init);

    op ops[WRITES];
    size_t split = rnd() % WRITES; /* writes before the fork go to both */
    mem_space *child = NULL;
    for (size_t k = 0; k < WRITES; k++) {
      if (k == split) child = mem_space_clone(parent);
      op *w = &ops[k];
      w->width = 1 + (unsigned)(rnd() % 4);
      w->symbolic_offset = rnd() % 3 == 0;
      w->symbolic_value = rnd() % 2;
      w->slot =
          w->symbolic_offset ? (unsigned)(rnd() % CAP) : (unsigned)(rnd() % (CAP - w->width + 1));
      w->value = rnd();
      expr *offset;
      if (w->symbolic_offset) {
        expr *slot = expr_const(64, w->slot);
        expr *byte = expr_read(idx, NULL, slot);
        expr *wide = expr_zext(byte, 64);
        expr *range = expr_const(64, CAP - w->width + 1);
        offset = expr_urem(wide, range);
        expr_unref(slot);
        expr_unref(byte);
        expr_unref(wide);
        expr_unref(range);
      } else {
        offset = expr_const(64, w->slot);
      }
      expr *value = NULL;
      for (unsigned b = 0; b < w->width; b++) {
        expr *byte;
        if (w->symbolic_value) {
          expr *at = expr_const(64, w->value % CAP);
          expr *src = expr_read(buf, NULL, at);
          expr *add = expr_const(8, b);
          byte = expr_add(src, add);
          expr_unref(at);
          expr_unref(src);
          expr_unref(add);
        } else {
          byte = expr_const(8, w->value >> (8 * b));
        }
        expr *wider = value ? expr_concat(byte, value) : expr_ref(byte);
        expr_unref(byte);
        expr_unref(value);
        value = wider;
      }
      /* after the fork, the writes go to the child only */
      mem_write(child ? child : parent, o, offset, value);
      expr_unref(offset);
      expr_unref(value);
    }
    if (!child) child = mem_space_clone(parent);

    for (unsigned a = 0; a < ASSIGNMENTS; a++) {
      uint8_t bufv[CAP], idxv[CAP], want_child[CAP], want_parent[CAP];
      for (unsigned i = 0; i < CAP; i++) bufv[i] = (uint8_t)rnd(), idxv[i] = (uint8_t)rnd();
      expr_assignment *m = expr_assignment_new();
      expr_assignment_set(m, buf, bufv, CAP);
      expr_assignment_set(m, idx, idxv, CAP);
      simulate(ops, WRITES, bufv, idxv, symbolic_object, want_child);
      simulate(ops, split, bufv, idxv, symbolic_object, want_parent);
      for (unsigned i = 0; i < CAP; i++) {
        expr *off = expr_const(64, i);
        expr *rc = mem_read(child, o, off, 1);
        expr *rp = mem_read(parent, o, off, 1);
        CHECK_EQ_U64(eval_under(rc, m), want_child[i]);
        CHECK_EQ_U64(eval_under(rp, m), want_parent[i]);
        expr_unref(rc);
        expr_unref(rp);
        expr_unref(off);
        compared += 2;
      }
      /* a symbolic-offset read of two bytes agrees too */
      expr *slot = expr_const(64, 0);
      expr *byte = expr_read(idx, NULL, slot);
      expr *wide = expr_zext(byte, 64);
      expr *range = expr_const(64, CAP - 1);
      expr *offset = expr_urem(wide, range);
      expr *r = mem_read(child, o, offset, 2);
      unsigned at = idxv[0] % (CAP - 1);
      CHECK_EQ_U64(eval_under(r, m), want_child[at] | (want_child[at + 1] << 8));
      expr *all[] = {slot, byte, wide, range, offset, r};
      for (size_t k = 0; k < sizeof all / sizeof *all; k++) expr_unref(all[k]);
      expr_assignment_free(m);
    }
    check_bytes_differing(parent, child, o, ops);
    mem_space_free(child);
    mem_space_free(parent);
    mem_object_unref(o);
    expr_array_unref(buf);
    expr_array_unref(idx);
    expr_unref(cap);
  }
  printf("differential: %u byte reads compared\n", compared);
}

int main(void) {
  size_t live = expr_live_count();
  test_allocator();
  test_find_and_unbind();
  test_concrete_and_cow();
  test_symbolic_object();
  test_merged_offset();
  test_differential();
  CHECK_EQ_U64(expr_live_count(), live);
  CHECK_EQ_U64(expr_live_arrays(), 0);
  CHECK_EQ_U64(expr_live_updates(), 0);
  return check_exit();
}
