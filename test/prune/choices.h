/* choices.h — the drivers' N symbolic choices (N defaults to 4; the test passes -DN=…):
 * each p[i] > 100 adds 3 to noise, any other takes 1 away. A macro, so that the loop stays
 * in main and noise is one of main's registers, as the shape has it. */
#ifndef N
#define N 4
#endif
#define NOISE_CHOICES(p, noise)                                                             \
  for (int i_ = 0; i_ < N; i_++) {                                                          \
    if ((p)[i_] > 100) (noise) += 3;                                                        \
    else                                                                                    \
      (noise) -= 1;                                                                         \
  }
