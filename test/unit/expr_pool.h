/*
 * expr_pool — the unit tests' references held until the end of a group of checks: K(e) keeps
 * an expression (and returns it) and pool_array makes an array kept the same way; pool_release
 * drops every reference kept since the last release. Lets a test build terms inline without
 * freeing each one, and still check afterwards that nothing leaked (expr_live_count).
 */
#ifndef SYMQ_TEST_EXPR_POOL_H
#define SYMQ_TEST_EXPR_POOL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "engine/core/expr.h"

static expr **pool;
static size_t npool, cap_pool;
static expr_array **apool;
static size_t napool, cap_apool;

static expr *K(expr *e) {
  if (npool == cap_pool) {
    cap_pool = cap_pool ? 2 * cap_pool : 512;
    pool = realloc(pool, cap_pool * sizeof *pool);
    if (!pool) abort();
  }
  return pool[npool++] = e;
}

/* An array of capacity bytes, its size the constant capacity. */
static expr_array *pool_array(const char *name, uint64_t capacity, bool input) {
  expr *size = expr_const(64, capacity);
  expr_array *a = expr_array_new(name, size, capacity, input, NULL);
  expr_unref(size);
  if (napool == cap_apool) {
    cap_apool = cap_apool ? 2 * cap_apool : 32;
    apool = realloc(apool, cap_apool * sizeof *apool);
    if (!apool) abort();
  }
  return apool[napool++] = a;
}

static void pool_release(void) {
  for (size_t i = 0; i < npool; i++) expr_unref(pool[i]);
  for (size_t i = 0; i < napool; i++) expr_array_unref(apool[i]);
  npool = napool = 0;
}

#endif
