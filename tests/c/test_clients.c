/* What a game client does through the C API: save a game in the middle (a flat focus
 * pending) and resume it exactly with carc_game_from_record_ex (same draws, window and
 * focus, played on to the same end); animate the events with a cursor (the points add
 * up to the scores, scored features list their parts); draw tiles from their geometry;
 * read the last placed tile, the pending focus (and cancel it) and the window origin.
 *
 * Usage: test_clients [games]   (default 3) */
/* It calls the per-set getters kept for one release over the state tables. */
#define CARC_NO_DEPRECATED_WARNINGS
#include "check.h"

#define MAX_IDS 16384
static int8_t mask_a[MAX_IDS], mask_b[MAX_IDS];
static CarcAction actions[4096];
static CarcEvent events[4096];
static CarcFeaturePart parts[1024];
static CarcPlacedTile tiles[512];

static uint32_t ids_of(const CarcGame *game, int8_t *mask, CarcMaskInfo *info) {
    uint32_t n = 0;
    EXPECT_OK(carc_game_legal_mask(game, mask, MAX_IDS, &n, info));
    return n;
}

static uint64_t hash_of(const CarcGame *game) {
    uint64_t h = 0;
    EXPECT_OK(carc_game_state_hash(game, &h));
    return h;
}

static int is_over(const CarcGame *game) {
    uint8_t t = 0;
    EXPECT_OK(carc_game_is_terminal(game, &t));
    return t;
}

/* The record of `game` in a malloc'ed string (size query, then the text). */
static char *record_of(const CarcGame *game) {
    uint32_t size = 0;
    char *text;
    EXPECT_OK(carc_game_to_record(game, "client", NULL, 0, &size));
    text = (char *)malloc(size);
    EXPECT_OK(carc_game_to_record(game, "client", text, size, &size));
    return text;
}

/* One decision by flat id: the `pick`-th offered id (a CELL id may leave a focus). */
static void flat_step(CarcGame *game, uint32_t pick) {
    CarcMaskInfo info;
    uint32_t n = ids_of(game, mask_a, &info), i, seen = 0;
    if (info.offered == 0) {
        uint32_t count = 0;
        EXPECT_OK(carc_game_legal_actions(game, actions, 4096, &count));
        EXPECT_OK(carc_game_apply(game, &actions[pick % count]));
        return;
    }
    pick %= info.offered;
    for (i = 0; i < n; i++) {
        if (mask_a[i] == 1 && seen++ == pick) {
            EXPECT_OK(carc_game_apply_flat(game, i, NULL));
            return;
        }
    }
    CHECK(0 && "an offered id");
}

/* Saves a sampled game after `stop` decisions, with a focus pending when a CELL id
 * offers one, resumes it, and plays both on with the same ids. */
static void save_and_resume(uint32_t stop) {
    CarcGame *game = NULL, *back = NULL;
    CarcObservationSizes sa, sb;
    CarcFocus fa, fb;
    CarcMaskInfo ia, ib;
    TestRng rng = {stop * 7919u + 1};
    uint32_t i, n, cell_base;
    char *saved, *end_a, *end_b;
    EXPECT_OK(carc_game_new("{\"players\":3,\"sets\":[\"base\",\"princess-and-dragon\","
                            "\"abbey-and-mayor\"],\"seed\":12,\"window\":9}",
                            &game));
    for (i = 0; i < stop && !is_over(game); i++) {
        flat_step(game, rng_below(&rng, 1000));
    }
    EXPECT_OK(carc_game_observation_sizes(game, &sa));
    cell_base = 4 * sa.window * sa.window;
    n = ids_of(game, mask_a, &ia);
    for (i = cell_base; i < cell_base + sa.window * sa.window && i < n; i++) {
        if (mask_a[i] == 1) {
            uint8_t completed = 9;
            EXPECT_OK(carc_game_apply_flat(game, i, &completed));
            EXPECT_OK(carc_game_pending_focus(game, &fa));
            CHECK(fa.pending == (completed ? 0 : 1));
            break;
        }
    }
    saved = record_of(game);
    CHECK(strstr(saved, "\"resume\"") != NULL);
    EXPECT_OK(carc_game_from_record_ex(saved, NULL, &back));
    CHECK(hash_of(back) == hash_of(game));
    EXPECT_OK(carc_game_observation_sizes(back, &sb));
    CHECK(sb.window == sa.window);
    EXPECT_OK(carc_game_pending_focus(game, &fa));
    EXPECT_OK(carc_game_pending_focus(back, &fb));
    CHECK(memcmp(&fa, &fb, sizeof fa) == 0);
    n = ids_of(game, mask_a, &ia);
    CHECK(ids_of(back, mask_b, &ib) == n);
    CHECK(memcmp(mask_a, mask_b, n) == 0 && memcmp(&ia, &ib, sizeof ia) == 0);
    while (!is_over(game)) {
        uint32_t pick = rng_below(&rng, 1000);
        flat_step(game, pick);
        flat_step(back, pick);
        if (hash_of(back) != hash_of(game)) {
            CHECK(0 && "the resumed game draws like the saved one");
            break;
        }
    }
    CHECK(is_over(back));
    end_a = record_of(game);
    end_b = record_of(back);
    CHECK(strcmp(end_a, end_b) == 0);
    free(saved);
    free(end_a);
    free(end_b);
    carc_game_free(back);
    carc_game_free(game);
}

/* Events shown with a cursor as the game goes: their points add up to the scores. */
static void animate_events(uint32_t seed) {
    char config[256];
    CarcGame *game = NULL;
    TestRng rng = {seed + 17};
    uint32_t shown = 0, i, n, players = 0;
    int32_t sum[6] = {0, 0, 0, 0, 0, 0}, scores[6];
    uint32_t returned = 0;
    snprintf(config, sizeof config,
             "{\"players\":4,\"sets\":[\"base\",\"river1\",\"princess-and-dragon\","
             "\"abbey-and-mayor\"],\"figures\":{\"abbot\":1},\"seed\":%u}",
             (unsigned)seed);
    EXPECT_OK(carc_game_new(config, &game));
    while (!is_over(game)) {
        uint32_t count = 0;
        EXPECT_OK(carc_game_legal_actions(game, actions, 4096, &count));
        EXPECT_OK(carc_game_apply(game, &actions[rng_below(&rng, count)]));
        EXPECT_OK(carc_game_events(game, shown, events, 4096, &n));
        for (i = 0; i < n; i++) {
            const CarcEvent *e = &events[i];
            if (e->kind == CARC_EVENT_KIND_SCORE) {
                uint32_t k, np = 0, found = 0;
                sum[e->player] += e->points;
                EXPECT_OK(carc_game_event_parts(game, shown + i, parts, 1024, &np));
                CHECK(np == e->parts);
                for (k = 0; k < np; k++) {
                    found |= parts[k].x == e->x && parts[k].y == e->y &&
                             parts[k].feature == e->feature;
                }
                CHECK(np == 0 || found);
            } else {
                CHECK(e->kind == CARC_EVENT_KIND_FIGURE_RETURNED);
                CHECK(e->figure != CARC_FIGURE_BARN && e->has_place == 1);
                returned++;
            }
        }
        shown += n;
    }
    EXPECT_OK(carc_game_scores(game, scores, 6, &players));
    for (i = 0; i < players; i++) {
        CHECK(sum[i] == scores[i]);
    }
    CHECK(returned > 0);
    carc_game_free(game);
}

/* Geometry: every feature of every tile covers its segments once; a city's corners
 * and sides follow its segments; turning a tile moves its segments with it. */
static void draw_tiles(void) {
    uint32_t kinds = 0, k, f, count, rot;
    uint16_t d = 0;
    const char *id = NULL;
    uint32_t symbols = 0;
    CarcFeatureGeometry g, turned;
    EXPECT_OK(carc_tile_kind_count(&kinds));
    for (k = 0; k < kinds; k++) {
        uint16_t covered = 0;
        EXPECT_OK(carc_tile_feature_count(k, &count));
        for (f = 0; f < count; f++) {
            EXPECT_OK(carc_tile_feature_geometry(k, f, 0, &g));
            CHECK((covered & g.segments) == 0);
            covered |= g.segments;
            for (rot = 1; rot < 4; rot++) {
                uint32_t r = rot * 3;
                EXPECT_OK(carc_tile_feature_geometry(k, f, rot, &turned));
                CHECK(turned.segments ==
                      (uint16_t)(((g.segments << r) | (g.segments >> (12 - r))) & 0xFFF));
                CHECK(turned.kind == g.kind && turned.pennants == g.pennants);
            }
        }
        EXPECT_OK(carc_tile_symbols(k, &symbols));
        EXPECT_OK(carc_tile_kind_id(k, &id));
        /* Every edge third belongs to one feature, but the abbey's (AM1), the sides of
         * the Count's squares that face the walled City of Carcassonne, and the middle
         * third of the narrow side of HS-CITYCAP-VINEYARD (S1, where the city's tip
         * meets it). */
        if (strcmp(id, "HS-CITYCAP-VINEYARD") == 0) {
            CHECK(covered == (0xFFF & ~(1u << 7)));
        } else if (strncmp(id, "COUNT-", 6) != 0) {
            CHECK(covered == ((symbols & CARC_SYMBOL_ABBEY) ? 0 : 0xFFF));
        }
    }
    /* BASE-D: a city cap (north), a road west-east, a field on each side of the road. */
    EXPECT_OK(carc_tile_kind_index("BASE-D", &d));
    EXPECT_OK(carc_tile_symbols(d, &symbols));
    CHECK(symbols == 0);
    EXPECT_OK(carc_tile_feature_geometry(d, 0, 0, &g));
    CHECK(g.kind == CARC_FEATURE_KIND_CITY && g.segments == 0x7 && g.sides == 1);
    EXPECT_OK(carc_tile_kind_index("BASE-B", &d));
    EXPECT_OK(carc_tile_symbols(d, &symbols));
    CHECK(symbols == CARC_SYMBOL_MONASTERY);
    EXPECT_STATUS(carc_tile_feature_geometry(0, 0, 4, &g), CARC_STATUS_INVALID_ARGUMENT);
}

/* The last placed tile, a pending focus and its cancelling, the window origin. */
static void getters(void) {
    CarcGame *game = NULL;
    CarcPlacedTile last;
    CarcWindowOrigin origin;
    CarcFocus focus;
    CarcObservationSizes sizes;
    TestRng rng = {99};
    uint32_t n = 0, step, i, cancelled_some = 0;
    EXPECT_OK(carc_game_new("{\"players\":2,\"sets\":[\"base\",\"princess-and-dragon\"],"
                            "\"seed\":5,\"window\":11}",
                            &game));
    EXPECT_OK(carc_game_observation_sizes(game, &sizes));
    for (step = 0; step < 400 && !is_over(game); step++) {
        CarcMaskInfo info;
        uint32_t cell_base = 4 * sizes.window * sizes.window;
        EXPECT_OK(carc_game_placed_tiles(game, tiles, 512, &n));
        EXPECT_OK(carc_game_last_placed(game, &last));
        CHECK(memcmp(&last, &tiles[n - 1], sizeof last) == 0);
        EXPECT_OK(carc_game_window_origin(game, &origin));
        ids_of(game, mask_a, &info);
        for (i = cell_base; i < cell_base + sizes.window * sizes.window; i++) {
            if (mask_a[i] == 1) {
                uint8_t completed = 1, cancelled = 0;
                CarcMaskInfo after;
                EXPECT_OK(carc_game_apply_flat(game, i, &completed));
                if (completed) {
                    break;
                }
                EXPECT_OK(carc_game_pending_focus(game, &focus));
                CHECK(focus.pending == 1);
                CHECK(focus.x == origin.x + (int32_t)((i - cell_base) % sizes.window));
                CHECK(focus.y == origin.y + (int32_t)((i - cell_base) / sizes.window));
                EXPECT_OK(carc_game_cancel_focus(game, &cancelled));
                CHECK(cancelled == 1);
                EXPECT_OK(carc_game_pending_focus(game, &focus));
                CHECK(focus.pending == 0);
                ids_of(game, mask_b, &after);
                CHECK(memcmp(mask_a, mask_b, sizes.actions) == 0);
                cancelled_some = 1;
                break;
            }
        }
        flat_step(game, rng_below(&rng, 1000));
    }
    CHECK(cancelled_some);
    carc_game_free(game);
}

/* Records do not save the observation preset: a compact game loads back compact with
 * the "preset" option of carc_game_from_record_ex, and in the full encoding without. */
static void resume_with_preset(void) {
    CarcGame *game = NULL, *back = NULL, *full = NULL;
    uint32_t n_game = 0, n_back = 0, n_full = 0;
    char *saved;
    EXPECT_OK(carc_game_new("{\"players\":2,\"sets\":[\"base\"],\"seed\":5,"
                            "\"preset\":\"compact\"}",
                            &game));
    flat_step(game, 3);
    saved = record_of(game);
    EXPECT_OK(carc_game_from_record_ex(saved, "{\"preset\":\"compact\"}", &back));
    EXPECT_OK(carc_game_from_record_ex(saved, NULL, &full));
    EXPECT_OK(carc_game_num_actions(game, &n_game));
    EXPECT_OK(carc_game_num_actions(back, &n_back));
    EXPECT_OK(carc_game_num_actions(full, &n_full));
    CHECK(n_back == n_game && n_full > n_game);
    CHECK(carc_game_from_record_ex(saved, "{\"preset\":\"tiny\"}", &full) ==
          CARC_STATUS_INVALID_ARGUMENT);
    free(saved);
    carc_game_free(game);
    carc_game_free(back);
    carc_game_free(full);
}

/* TW1: tower pieces per player, 10 / 9 / 7 / 6 / 5 with 2 to 6 players, and 0 in a game
 * without the Tower; a seat outside the game is INVALID_ARGUMENT. */
static void tower_pieces(void) {
    static const uint32_t pieces[7] = {0, 0, 10, 9, 7, 6, 5};
    char config[128];
    uint32_t players, seat, out;
    for (players = 2; players <= 6; players++) {
        CarcGame *tower = NULL, *base = NULL;
        snprintf(config, sizeof config, "{\"players\":%u,\"sets\":[\"base\",\"tower\"]}",
                 (unsigned)players);
        EXPECT_OK(carc_game_new(config, &tower));
        snprintf(config, sizeof config, "{\"players\":%u,\"sets\":[\"base\"]}",
                 (unsigned)players);
        EXPECT_OK(carc_game_new(config, &base));
        for (seat = 0; seat < players; seat++) {
            out = 99;
            EXPECT_OK(carc_game_tower_pieces(tower, seat, &out));
            CHECK(out == pieces[players]);
            out = 99;
            EXPECT_OK(carc_game_tower_pieces(base, seat, &out));
            CHECK(out == 0);
        }
        EXPECT_STATUS(carc_game_tower_pieces(base, players, &out), CARC_STATUS_INVALID_ARGUMENT);
        carc_game_free(tower);
        carc_game_free(base);
    }
}

/* TW5: PAY_RANSOM's seat (`prisoner_of`) outside the game is INVALID_ARGUMENT, as every
 * other field out of range is; a seat of the game is well formed (and not legal now).
 * HS1, HS2: the CarcFlockChoice and CarcSheepToken the header's CarcAction names. */
static void action_fields(void) {
    CarcGame *game = NULL;
    CarcAction ransom, flock, token;
    uint8_t legal = 7;
    const CarcFlockChoice choices[2] = {CARC_FLOCK_CHOICE_GROW, CARC_FLOCK_CHOICE_HERD};
    const CarcSheepToken tokens[5] = {CARC_SHEEP_TOKEN_SHEEP1, CARC_SHEEP_TOKEN_SHEEP2,
                                      CARC_SHEEP_TOKEN_SHEEP3, CARC_SHEEP_TOKEN_SHEEP4,
                                      CARC_SHEEP_TOKEN_WOLF};
    uint32_t i;
    EXPECT_OK(carc_game_new("{\"players\":3,\"sets\":[\"base\",\"tower\",\"hills-and-sheep\"],"
                            "\"seed\":2}",
                            &game));
    memset(&ransom, 0, sizeof ransom);
    ransom.kind = CARC_ACTION_KIND_PAY_RANSOM;
    ransom.figure = CARC_FIGURE_FOLLOWER;
    ransom.seat = 77;
    EXPECT_STATUS(carc_game_is_legal(game, &ransom, &legal), CARC_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(last_error_text(), "action.seat 77") != NULL);
    CHECK(legal == 7);
    ransom.seat = 3;
    EXPECT_STATUS(carc_game_is_legal(game, &ransom, &legal), CARC_STATUS_INVALID_ARGUMENT);
    EXPECT_STATUS(carc_game_apply(game, &ransom), CARC_STATUS_INVALID_ARGUMENT);
    ransom.seat = 2;
    EXPECT_OK(carc_game_is_legal(game, &ransom, &legal));
    CHECK(legal == 0);
    memset(&flock, 0, sizeof flock);
    flock.kind = CARC_ACTION_KIND_FLOCK;
    for (i = 0; i < 2; i++) {
        flock.choice = (uint8_t)choices[i];
        legal = 7;
        EXPECT_OK(carc_game_is_legal(game, &flock, &legal));
        CHECK(legal == 0);
    }
    flock.choice = (uint8_t)(CARC_FLOCK_CHOICE_HERD + 1);
    EXPECT_STATUS(carc_game_is_legal(game, &flock, &legal), CARC_STATUS_INVALID_ARGUMENT);
    memset(&token, 0, sizeof token);
    token.kind = CARC_ACTION_KIND_DRAW_TOKEN;
    for (i = 0; i < 5; i++) {
        token.token = (uint8_t)tokens[i];
        legal = 7;
        EXPECT_OK(carc_game_is_legal(game, &token, &legal));
        CHECK(legal == 0);
    }
    token.token = (uint8_t)(CARC_SHEEP_TOKEN_WOLF + 1);
    EXPECT_STATUS(carc_game_is_legal(game, &token, &legal), CARC_STATUS_INVALID_ARGUMENT);
    carc_game_free(game);
}

int main(int argc, char **argv) {
    uint32_t games = argc > 1 ? (uint32_t)atoi(argv[1]) : 3, g;
    CHECK(carc_abi_version() == CARC_ABI_VERSION && CARC_ABI_VERSION >= 2);
    for (g = 0; g < games; g++) {
        save_and_resume(g * 29);
        animate_events(g);
    }
    draw_tiles();
    getters();
    resume_with_preset();
    tower_pieces();
    action_fields();
    return finish("test_clients");
}
