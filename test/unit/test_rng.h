/*
 * test_rng — the unit tests' seeded random numbers: xorshift64, so that a test's family of
 * random cases is the same on every run and every machine. test_rng_seed sets the state
 * (nonzero); test_rnd(n) is uniform enough in [0, n) for n far below 2^64.
 */
#ifndef SYMQ_TEST_RNG_H
#define SYMQ_TEST_RNG_H

#include <stdint.h>

static uint64_t test_rng_state = 0x2545F4914F6CDD1DULL;

static inline void test_rng_seed(uint64_t seed) { test_rng_state = seed ? seed : 1; }

static inline unsigned test_rnd(unsigned n) {
  test_rng_state ^= test_rng_state << 13;
  test_rng_state ^= test_rng_state >> 7;
  test_rng_state ^= test_rng_state << 17;
  return (unsigned)(test_rng_state % n);
}

#endif
