/*
 * rng.h - the game's generator (rng.c) as inline functions, for the loops
 * that draw once a decision or more (random playouts, the players' playout
 * policy): the same stream as ax_rng_next and ax_rng_below, without a call.
 *
 * xoshiro256** seeded through splitmix64; bounded draws by Lemire's
 * multiply-and-reject method, so they stay unbiased.
 */
#ifndef AX_RNG_H
#define AX_RNG_H

#include "axio.h"

static inline uint64_t ax_rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t ax_rng_next_inline(ax_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = ax_rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = ax_rng_rotl(s[3], 45);
    return result;
}

static inline uint32_t ax_rng_below_inline(ax_rng *r, uint32_t n)
{
    uint64_t m = (uint64_t)(uint32_t)(ax_rng_next_inline(r) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(ax_rng_next_inline(r) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

#endif
