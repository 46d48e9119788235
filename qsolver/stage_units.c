/*
 * stage_units.c — the unit stage, just in front of Z3: a request whose formulas pin bytes
 * to constants (x = c, where x reads an array at a constant index through no writes) is
 * answered from those bytes when they decide it.
 *
 *   - Two units that pin one byte to different values: unsat (both must hold).
 *   - Otherwise the pinned bytes, every other byte 0 (what expr_eval reads for an unbound
 *     byte), are a candidate model; when every formula of the request evaluates to true
 *     under it, it is a model: sat.
 *   - Anything else goes on to Z3 unchanged.
 * What it answers is decided by evaluation, never guessed, so it can only save Z3 a query.
 * The relaxed stage's fixed requests are its case: a loop's bound fixed to its value in a
 * model turns the loop's forall into byte equalities (s[i] = 'b' for each i below it) and
 * the bounds themselves into units (K1 = 31, n = 64), with a disequality or two on other
 * bytes; Z3 needed ~0.7 ms for each of chained memspn's 128 of them at capacity 64.
 * Arrays with initial contents (constant arrays) are never pinned: their bytes are fixed
 * already.
 */
#include "qsolver/stage.h"
#include "engine/core/xalloc.h"

/* One array's pinned bytes, grown to the highest pinned index. */
typedef struct pinned {
  expr_array *array; /* borrowed from the request's formulas */
  uint8_t *bytes, *set;
  size_t len, cap;
} pinned;

typedef struct units_stage {
  qs_stage base;
  pinned *arrays; /* [0, narrays) this request's; [narrays, nslots) spare, buffers kept */
  size_t narrays, nslots, arrays_cap;
} units_stage;

/* x = c with x a read of `width` bits at a constant index, through no writes, of an array
 * without initial contents, entirely below its capacity: the read and the constant. */
static bool as_unit(const expr *f, const expr **read, u128 *value) {
  if (f->kind != EXPR_EQ) return false;
  const expr *c = f->kid[0], *x = f->kid[1];
  if (!expr_is_const(c)) {
    c = f->kid[1];
    x = f->kid[0];
  }
  if (!expr_is_const(c) || x->kind != EXPR_READ || x->u.read.updates || x->u.read.array->init ||
      !expr_is_const(x->kid[0]) || x->width % 8)
    return false;
  u128 at = x->kid[0]->u.value;
  uint64_t nbytes = x->width / 8;
  if (at > x->u.read.array->capacity || nbytes > x->u.read.array->capacity - (uint64_t)at)
    return false;
  *read = x;
  *value = c->u.value;
  return true;
}

static pinned *pinned_for(units_stage *u, expr_array *a) {
  for (size_t i = 0; i < u->narrays; i++)
    if (u->arrays[i].array == a) return &u->arrays[i];
  if (u->narrays == u->nslots) {
    QS_RESERVE(u->arrays, u->arrays_cap, u->nslots + 1);
    u->arrays[u->nslots++] = (pinned){0};
  }
  pinned *p = &u->arrays[u->narrays++];
  p->array = a;
  p->len = 0;
  return p;
}

/* Pins the read's bytes (little-endian) to value; false when one is pinned otherwise. */
static bool pin(units_stage *u, const expr *read, u128 value) {
  pinned *p = pinned_for(u, read->u.read.array);
  size_t at = (size_t)read->kid[0]->u.value, nbytes = read->width / 8;
  if (at + nbytes > p->len) {
    size_t len = at + nbytes;
    if (len > p->cap) {
      p->bytes = qs_xrealloc(p->bytes, len);
      p->set = qs_xrealloc(p->set, len);
      p->cap = len;
    }
    memset(p->set + p->len, 0, len - p->len);
    memset(p->bytes + p->len, 0, len - p->len);
    p->len = len;
  }
  for (size_t k = 0; k < nbytes; k++) {
    uint8_t byte = (uint8_t)(value >> (8 * k));
    if (p->set[at + k] && p->bytes[at + k] != byte) return false;
    p->bytes[at + k] = byte;
    p->set[at + k] = 1;
  }
  return true;
}

static void units_solve(qs_stage *st, const qs_req *rq, qs_ans *ans) {
  units_stage *u = (units_stage *)st;
  u->narrays = 0;
  for (size_t i = 0; i < rq->n; i++) {
    const expr *read;
    u128 value;
    if (!as_unit(rq->f[i], &read, &value)) continue;
    if (!pin(u, read, value)) {
      ans->status = QS_UNSAT;
      return;
    }
  }
  if (!u->narrays) { /* no unit: a pin opens its array's slot */
    qs_forward(st, rq, ans);
    return;
  }
  expr_assignment *m = expr_assignment_new();
  for (size_t i = 0; i < u->narrays; i++)
    expr_assignment_set(m, u->arrays[i].array, u->arrays[i].bytes, u->arrays[i].len);
  if (!qs_model_satisfies(rq->f, rq->n, m)) {
    expr_assignment_free(m);
    qs_forward(st, rq, ans);
    return;
  }
  ans->status = QS_SAT;
  if (rq->want_model) ans->model = m;
  else
    expr_assignment_free(m);
}

static void units_destroy(qs_stage *st) {
  units_stage *u = (units_stage *)st;
  for (size_t i = 0; i < u->nslots; i++) {
    free(u->arrays[i].bytes);
    free(u->arrays[i].set);
  }
  free(u->arrays);
  free(u);
}

static const qs_stage_ops units_ops = {"units", units_solve, units_destroy};

qs_stage *qs_units_stage_new(qsolver *s) {
  (void)s;
  units_stage *u = xcalloc(1, sizeof *u);
  u->base.ops = &units_ops;
  return &u->base;
}
