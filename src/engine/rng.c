/*
 * rng.c - the game's deterministic random generator.
 *
 * xoshiro256** seeded through splitmix64: small, fast, and the same stream on
 * every platform, so a seed plus the decisions replays a game exactly.
 * ax_rng_below() uses Lemire's multiply-and-reject method to stay unbiased.
 * The hot loops use the same functions inline (rng.h).
 */
#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void ax_rng_seed(ax_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

uint64_t ax_rng_next(ax_rng *r) { return ax_rng_next_inline(r); }

uint32_t ax_rng_below(ax_rng *r, uint32_t n) { return ax_rng_below_inline(r, n); }
