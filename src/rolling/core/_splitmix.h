/* SplitMix64, the steps of rolling.core.rng.Rng, for every C part that draws (issue 34):
   rolling/core/_splitmix.c (Rng's own steps) and rolling/games/freight/_turn.c (step H, the roll
   at the end of a turn). One definition, so that a draw in C is the draw Python makes: rng.py's
   Python steps are the reference (tests/core/test_rng_compiled.py). */

#ifndef ROLLING_SPLITMIX_H
#define ROLLING_SPLITMIX_H

#include <stdint.h>

/* One SplitMix64 step: the state advanced, the 64-bit output (Python masks unbounded integers to
   64 bits; uint64_t arithmetic wraps the same way). */
static inline uint64_t splitmix_step(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Rng.below(n), n >= 1: a value in [0, n) by rejection sampling, as Python draws it (limit =
   2**64 - 2**64 % n, accept x < limit; with rem = 2**64 % n that is x <= 2**64 - 1 - rem, every x
   when rem is 0). */
static inline uint64_t splitmix_below(uint64_t *state, uint64_t n) {
    uint64_t rem = (UINT64_MAX % n + 1) % n, last = UINT64_MAX - rem, x;
    do {
        x = splitmix_step(state);
    } while (x > last);
    return x % n;
}

#endif
