/* Later work on another input in the same frame of a test/merge driver, reading neither the
 * buffer a merged loop walked nor the loop's count: an if-chain of 16 branches, as the rest
 * of a real caller's code is. Without it the ∀'s reads are a large share of the frame's later
 * query sites and the ∀'s own test declines a merge the driver means to reach the decision it
 * tests (test/merge/split, rewalk, copywalk). Sets r from m. */
#ifndef SYMQ_TEST_MERGE_LATER_WORK_H
#define SYMQ_TEST_MERGE_LATER_WORK_H

#define ARM(k) else if (m == k) r = k * 3;
#define MODE_OF(m, r)                                                                          \
  if (m == 0) r = 1;                                                                           \
  ARM(1) ARM(2) ARM(3) ARM(4) ARM(5) ARM(6) ARM(7) ARM(8) ARM(9) ARM(10) ARM(11) ARM(12)       \
  ARM(13) ARM(14) ARM(15)

#endif
