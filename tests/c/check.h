/* Minimal test harness shared by the C test programs: counts checks and prints the
 * summary line "NAME: N passed, N failed". */
#ifndef CARC_TEST_CHECK_H
#define CARC_TEST_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carcassonne.h"

static long checks_passed = 0;
static long checks_failed = 0;

/* The calling thread's last detailed error message (static storage, overwritten). */
static inline const char *last_error_text(void) {
    static char text[4096];
    uint32_t needed = 0;
    if (carc_last_error(text, (uint32_t)sizeof text, &needed) != CARC_STATUS_OK) {
        snprintf(text, sizeof text, "(message of %u bytes)", (unsigned)needed);
    }
    return text;
}

static inline void check_impl(int ok, const char *what, const char *file, int line) {
    if (ok) {
        checks_passed++;
    } else {
        checks_failed++;
        fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    }
}

static inline void expect_status_impl(CarcStatus got, CarcStatus want, const char *what,
                               const char *file, int line) {
    if (got == want) {
        checks_passed++;
    } else {
        checks_failed++;
        fprintf(stderr, "%s:%d: %s returned %u (%s), expected %u (%s); last error: %s\n", file,
                line, what, (unsigned)got, carc_status_message(got), (unsigned)want,
                carc_status_message(want), last_error_text());
    }
}

#define CHECK(cond) check_impl((cond) ? 1 : 0, #cond, __FILE__, __LINE__)
#define EXPECT_STATUS(expr, want) expect_status_impl((expr), (want), #expr, __FILE__, __LINE__)
#define EXPECT_OK(expr) EXPECT_STATUS((expr), CARC_STATUS_OK)

/* Prints the summary line and gives the process exit code. */
static inline int finish(const char *name) {
    printf("%s: %ld passed, %ld failed\n", name, checks_passed, checks_failed);
    return checks_failed == 0 ? 0 : 1;
}

/* A small deterministic generator (xorshift64*), independent of the engine's. */
typedef struct {
    uint64_t state;
} TestRng;

static inline uint32_t rng_below(TestRng *rng, uint32_t n) {
    uint64_t x = rng->state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng->state = x;
    return (uint32_t)(((x * UINT64_C(0x2545F4914F6CDD1D)) >> 32) % (n == 0 ? 1 : n));
}

static inline double rng_unit(TestRng *rng) {
    return (double)rng_below(rng, 1000000) / 1000000.0;
}

/* A bot made from `spec` and `seed`, checked to be made. */
static inline CarcBot *new_bot(const char *spec, uint64_t seed) {
    CarcBot *bot = NULL;
    EXPECT_OK(carc_bot_new(spec, seed, &bot));
    CHECK(bot != NULL);
    return bot;
}

/* Whether two actions are the same (every field a client sets). */
static inline int same_action(const CarcAction *a, const CarcAction *b) {
    return a->kind == b->kind && a->rot == b->rot && a->figure == b->figure &&
           a->feature == b->feature && a->corner == b->corner && a->tile == b->tile &&
           a->x == b->x && a->y == b->y;
}

/* Whether `action` is one of the legal actions of `game` now. */
static inline int is_listed(const CarcGame *game, const CarcAction *action) {
    static CarcAction listed[4096];
    uint32_t n = 0, i;
    EXPECT_OK(carc_game_legal_actions(game, listed, 4096, &n));
    for (i = 0; i < n; i++) {
        if (same_action(&listed[i], action)) {
            return 1;
        }
    }
    return 0;
}

#endif
