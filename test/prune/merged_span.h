/* merged_span.h — the drivers' loop over a buffer of symbolic size (test/prune/merging.py):
 * the length of the prefix of s[0..n) made of 'a' (memspn's shape, drivers/memspn.c), a loop
 * whose branch reads the size n, so --merge=pat|cfg opens a region on it and merges its exits.
 * A macro, so that the loop stays in main (its registers are main's). */
#ifndef CAPACITY
#define CAPACITY 6
#endif
#define SPAN_OF_A(s, n, span)              \
  for ((span) = 0; (span) < (n); (span)++) \
    if ((s)[(span)] != 'a') break;
