/*
 * classify.c's loop at a capacity of 6: 3^6 paths go through it and about 1,500 states reach
 * its exits, fewer than --max-region-states, so the estimate (each switch case not yet run as
 * large as the one beside it) keeps the region open to the end and the states at its exits are
 * merged.
 * EXPECT: giveup=0
 */
#define CAP 6
#include "classify.c"
