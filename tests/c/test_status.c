/* Every status code path of the C API: NULL handles and arguments, buffer sizes, illegal
 * and malformed actions, malformed configurations and records, actions after the game is
 * over; output parameters untouched on failure; the version macros against the library
 * and against the workspace's Cargo.toml (CARC_EXPECTED_VERSION, set by run.sh). */
/* It calls the per-set getters kept for one release over the state tables. */
#define CARC_NO_DEPRECATED_WARNINGS
#include "check.h"

#ifndef CARC_EXPECTED_VERSION
#error "compile with -DCARC_EXPECTED_VERSION=\"x.y.z\" (the version in Cargo.toml)"
#endif

#define STR2(x) #x
#define STR(x) STR2(x)

static const char *const BASE2 = "{\"players\":2,\"sets\":[\"base\"],\"seed\":42}";

static int contains(const char *text, const char *part) {
    return strstr(text, part) != NULL;
}

static void test_version(void) {
    const char *v = carc_version();
    char expected[64];
    snprintf(expected, sizeof expected, "%d.%d.%d", CARC_VERSION_MAJOR, CARC_VERSION_MINOR,
             CARC_VERSION_PATCH);
    CHECK(v != NULL);
    CHECK(strcmp(v, expected) == 0);
    CHECK(strcmp(v, CARC_EXPECTED_VERSION) == 0);
    CHECK(carc_abi_version() == CARC_ABI_VERSION);
    CHECK(CARC_ABI_VERSION >= 1);
    CHECK(strcmp(STR(CARC_VERSION_MAJOR) "." STR(CARC_VERSION_MINOR) "." STR(
                     CARC_VERSION_PATCH),
                 CARC_EXPECTED_VERSION) == 0);
}

static void test_messages(void) {
    uint32_t s, t;
    for (s = 0; s <= CARC_STATUS_INVALID_HANDLE; s++) {
        const char *m = carc_status_message(s);
        CHECK(m != NULL && strlen(m) > 1);
        CHECK(strcmp(m, "unknown status code") != 0);
        for (t = 0; t < s; t++) {
            CHECK(strcmp(m, carc_status_message(t)) != 0);
        }
    }
    CHECK(strcmp(carc_status_message(CARC_STATUS_INVALID_HANDLE + 1), "unknown status code") ==
          0);
    CHECK(strcmp(carc_status_message(0xFFFFFFFFu), "unknown status code") == 0);
    /* Stable numbers. */
    CHECK(CARC_STATUS_OK == 0 && CARC_STATUS_NULL_ARGUMENT == 1 &&
          CARC_STATUS_INVALID_CONFIG == 2 && CARC_STATUS_ILLEGAL_ACTION == 3 &&
          CARC_STATUS_BUFFER_TOO_SMALL == 4 && CARC_STATUS_BAD_RECORD == 5 &&
          CARC_STATUS_RECORD_MISMATCH == 6 && CARC_STATUS_GAME_OVER == 7 &&
          CARC_STATUS_PANIC == 8 && CARC_STATUS_HANDLE_POISONED == 9 &&
          CARC_STATUS_INVALID_ARGUMENT == 10 && CARC_STATUS_INVALID_HANDLE == 11);
}

/* Handles the library does not hold live are answered with CARC_STATUS_INVALID_HANDLE and
   never used: a game used after carc_game_free and freed twice, a bot passed as a game and
   a game as a bot, a pointer the library never gave out. (Run under AddressSanitizer and
   valgrind too: the library never reads through such a pointer.) */
static void test_invalid_handles(void) {
    CarcGame *game = NULL, *copy = NULL;
    CarcBot *bot = NULL;
    CarcAction action;
    uint32_t players = 99;
    uint8_t poisoned = 9;
    uint64_t not_a_handle[8] = {0};
    memset(&action, 0, sizeof action);
    EXPECT_OK(carc_game_new(BASE2, &game));
    EXPECT_OK(carc_bot_new("random", 1, &bot));
    if (game == NULL || bot == NULL) {
        return;
    }
    EXPECT_STATUS(carc_game_num_players((const CarcGame *)bot, &players),
                  CARC_STATUS_INVALID_HANDLE);
    CHECK(contains(last_error_text(), "it is a bot handle"));
    EXPECT_STATUS(carc_bot_choose((CarcBot *)game, game, &action), CARC_STATUS_INVALID_HANDLE);
    CHECK(contains(last_error_text(), "it is a game handle"));
    EXPECT_STATUS(carc_game_num_players((const CarcGame *)not_a_handle, &players),
                  CARC_STATUS_INVALID_HANDLE);
    EXPECT_OK(carc_game_clone(game, &copy));
    carc_game_free(game);
    /* Used after free, freed twice. */
    EXPECT_STATUS(carc_game_num_players(game, &players), CARC_STATUS_INVALID_HANDLE);
    CHECK(contains(last_error_text(), "it was freed"));
    EXPECT_STATUS(carc_game_is_poisoned(game, &poisoned), CARC_STATUS_INVALID_HANDLE);
    EXPECT_STATUS(carc_bot_choose(bot, game, &action), CARC_STATUS_INVALID_HANDLE);
    CHECK(players == 99 && poisoned == 9);
    carc_game_free(game);
    CHECK(contains(last_error_text(), "carc_game_free: game is not a live game handle"));
    carc_game_free((CarcGame *)bot);
    CHECK(contains(last_error_text(), "it is a bot handle"));
    /* The live handles still work. */
    EXPECT_OK(carc_game_num_players(copy, &players));
    CHECK(players == 2);
    EXPECT_OK(carc_bot_choose(bot, copy, &action));
    carc_bot_free(bot);
    carc_bot_free(bot);
    CHECK(contains(last_error_text(), "carc_bot_free: bot is not a live bot handle"));
    carc_game_free(copy);
}

static void test_null_handles(void) {
    uint32_t u = 7, needed = 7;
    uint8_t b = 7;
    uint16_t t = 7;
    uint64_t h = 7;
    int32_t scores[6];
    int8_t mask[8];
    uint8_t planes[8];
    float globals[8];
    char text[8];
    CarcPhase phase = 7;
    CarcSupply supply;
    CarcDragon dragon;
    CarcFairy fairy;
    CarcAction action;
    CarcObservationSizes sizes;
    CarcGame *out = (CarcGame *)&u;
    memset(&action, 0, sizeof action);
    action.kind = CARC_ACTION_KIND_PASS;

    carc_game_free(NULL);
    EXPECT_STATUS(carc_game_clone(NULL, &out), CARC_STATUS_NULL_ARGUMENT);
    CHECK(out == (CarcGame *)&u);
    EXPECT_STATUS(carc_game_to_record(NULL, "x", text, 8, &needed), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_last_error(NULL, text, 8, &needed), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_is_poisoned(NULL, &b), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_num_players(NULL, &u), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_to_play(NULL, &u), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_turn_player(NULL, &u), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_phase(NULL, &phase), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_is_terminal(NULL, &b), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_scores(NULL, scores, 6, &needed), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_scores_if_ended_now(NULL, scores, 6, &needed), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_supply(NULL, 0, &supply), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_tile_in_hand(NULL, &t), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_tiles_left(NULL, &u), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_remaining_tiles(NULL, planes, 8, &needed), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_placed_tiles(NULL, NULL, 0, &needed), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_board_figures(NULL, NULL, 0, &needed), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_dragon(NULL, &dragon), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_fairy(NULL, &fairy), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_state_hash(NULL, &h), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_legal_actions(NULL, NULL, 0, &needed), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_apply(NULL, &action), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_is_legal(NULL, &action, &b), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_chance_outcomes(NULL, NULL, 0, &needed), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_apply_draw(NULL, 0), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_observation_sizes(NULL, &sizes), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_num_actions(NULL, &u), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_legal_mask(NULL, mask, 8, &needed, NULL), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_apply_flat(NULL, 0, &b), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_action_to_flat(NULL, &action, &u, &needed),
                  CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_observe(NULL, 0, planes, 8, &u, globals, 8, &needed),
                  CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_render_text(NULL, text, 8, &needed), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_render_svg(NULL, text, 8, &needed), CARC_STATUS_NULL_ARGUMENT);
    /* Nothing was written through any output pointer. */
    CHECK(u == 7 && needed == 7 && b == 7 && t == 7 && h == 7 && phase == 7);
    CHECK(contains(last_error_text(), "carc_game_render_svg"));
    CHECK(contains(last_error_text(), "NULL"));
}

static void test_null_arguments(CarcGame *game) {
    uint32_t u = 7, needed = 7;
    uint8_t planes[8];
    float globals[8];
    CarcAction action;
    memset(&action, 0, sizeof action);
    EXPECT_STATUS(carc_game_new(NULL, &game), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_new(BASE2, NULL), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_from_record(NULL, CARC_CHANCE_SAMPLED, &game),
                  CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_clone(game, NULL), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_num_players(game, NULL), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_phase(game, NULL), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_supply(game, 0, NULL), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_dragon(game, NULL), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_apply(game, NULL), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_is_legal(game, NULL, planes), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_is_legal(game, &action, NULL), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_action_to_flat(game, &action, NULL, &u), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_observation_sizes(game, NULL), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_tile_kind_count(NULL), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_tile_kind_id(0, NULL), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_tile_kind_index(NULL, (uint16_t *)planes), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_tile_feature_id(0, 0, NULL), CARC_STATUS_NULL_ARGUMENT);
    /* Buffers: a NULL size pointer, and a NULL buffer with a nonzero length. */
    EXPECT_STATUS(carc_game_legal_actions(game, NULL, 0, NULL), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_legal_actions(game, NULL, 4, &needed), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_scores(game, NULL, 2, &needed), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_to_record(game, NULL, NULL, 0, NULL), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_last_error(NULL, 0, NULL), CARC_STATUS_NULL_ARGUMENT);
    /* Observations: both buffers or neither. */
    EXPECT_STATUS(carc_game_observe(game, 0, planes, 8, &u, NULL, 0, &needed),
                  CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_observe(game, 0, NULL, 0, &u, globals, 8, &needed),
                  CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_game_observe(game, 0, NULL, 0, NULL, NULL, 0, &needed),
                  CARC_STATUS_NULL_ARGUMENT);
    CHECK(u == 7 && needed == 7);
}

static void test_buffers(CarcGame *game) {
    CarcAction list[2];
    uint32_t needed = 0, n = 0, size = 0;
    int32_t scores[2] = {-5, -5};
    char small[4] = {'x', 'x', 'x', 'x'};
    char *text;
    /* Size query: NULL buffer, length 0. */
    EXPECT_OK(carc_game_legal_actions(game, NULL, 0, &needed));
    CHECK(needed > 2);
    /* Too small: only the size is written. */
    memset(list, 0xAB, sizeof list);
    EXPECT_STATUS(carc_game_legal_actions(game, list, 2, &n), CARC_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == needed);
    CHECK(list[0].kind == 0xAB && list[1].x == (int32_t)0xABABABAB);
    EXPECT_STATUS(carc_game_scores(game, scores, 1, &n), CARC_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == 2 && scores[0] == -5);
    EXPECT_OK(carc_game_scores(game, scores, 2, &n));
    CHECK(n == 2 && scores[0] == 0 && scores[1] == 0);
    scores[0] = -5;
    EXPECT_STATUS(carc_game_scores_if_ended_now(game, scores, 1, &n), CARC_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == 2 && scores[0] == -5);
    /* B15, B16: nothing on the board but the start tile, so nothing to add yet. */
    EXPECT_OK(carc_game_scores_if_ended_now(game, scores, 2, &n));
    CHECK(n == 2 && scores[0] == 0 && scores[1] == 0);
    /* Text: the size counts the NUL. */
    EXPECT_OK(carc_game_render_text(game, NULL, 0, &size));
    CHECK(size > 4);
    EXPECT_STATUS(carc_game_render_text(game, small, 4, &n), CARC_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == size && small[0] == 'x');
    text = (char *)malloc(size);
    EXPECT_STATUS(carc_game_render_text(game, text, size - 1, &n), CARC_STATUS_BUFFER_TOO_SMALL);
    EXPECT_OK(carc_game_render_text(game, text, size, &n));
    CHECK(strlen(text) + 1 == size);
    free(text);
    /* The mask needs A bytes. */
    {
        uint32_t actions = 0;
        int8_t tiny[3] = {9, 9, 9};
        CarcMaskInfo info = {77, 77, 77};
        EXPECT_OK(carc_game_num_actions(game, &actions));
        EXPECT_STATUS(carc_game_legal_mask(game, tiny, 3, &n, &info), CARC_STATUS_BUFFER_TOO_SMALL);
        CHECK(n == actions && tiny[0] == 9 && info.legal == 77);
    }
    /* Observations: sizes, then too small. */
    {
        uint32_t np = 0, ng = 0;
        uint8_t planes[4] = {9, 9, 9, 9};
        float globals[4] = {0, 0, 0, 0};
        CarcObservationSizes sizes;
        EXPECT_OK(carc_game_observe(game, 0, NULL, 0, &np, NULL, 0, &ng));
        EXPECT_OK(carc_game_observation_sizes(game, &sizes));
        CHECK(np == sizes.planes_len && ng == sizes.globals_len);
        CHECK(sizes.planes_len == sizes.planes * sizes.window * sizes.window);
        CHECK(sizes.window == CARC_DEFAULT_WINDOW);
        /* TILE 4·W², CELL W², SLOT slots × channels, CORNER 4, QUARTER 24, BRIDGE 24,
           BAZAAR 6·31, BID 31, CHOICE 2, EXCHANGE 9 figures, RANSOM 6 seats × 9 figures,
           FLOCK 2, PASS 1. */
        CHECK(sizes.actions == 5 * sizes.window * sizes.window + sizes.slots * sizes.channels +
                                   4 + 24 + 24 + 6 * 31 + 31 + 2 + 9 + 6 * 9 + 2 + 1);
        EXPECT_STATUS(carc_game_observe(game, 0, planes, 4, &np, globals, 4, &ng),
                      CARC_STATUS_BUFFER_TOO_SMALL);
        CHECK(planes[0] == 9);
    }
}

static void test_actions(CarcGame *game) {
    CarcAction a;
    uint64_t before = 0, after = 0;
    uint8_t legal = 9;
    uint32_t first = 7, second = 7, actions = 0;
    EXPECT_OK(carc_game_state_hash(game, &before));
    memset(&a, 0, sizeof a);
    a.kind = CARC_ACTION_KIND_PLACE_TILE;
    a.x = 100;
    a.y = 100;
    EXPECT_STATUS(carc_game_apply(game, &a), CARC_STATUS_ILLEGAL_ACTION);
    EXPECT_OK(carc_game_is_legal(game, &a, &legal));
    CHECK(legal == 0);
    EXPECT_STATUS(carc_game_action_to_flat(game, &a, &first, &second), CARC_STATUS_ILLEGAL_ACTION);
    CHECK(first == 7 && second == 7);
    a.kind = CARC_ACTION_KIND_PASS; /* not legal while a tile waits to be placed */
    EXPECT_STATUS(carc_game_apply(game, &a), CARC_STATUS_ILLEGAL_ACTION);
    EXPECT_STATUS(carc_game_apply_draw(game, 0), CARC_STATUS_ILLEGAL_ACTION); /* sampled */
    EXPECT_OK(carc_game_state_hash(game, &after));
    CHECK(before == after);
    /* Malformed fields. */
    a.kind = 99;
    EXPECT_STATUS(carc_game_apply(game, &a), CARC_STATUS_INVALID_ARGUMENT);
    CHECK(contains(last_error_text(), "action.kind"));
    a.kind = CARC_ACTION_KIND_PLACE_TILE;
    a.rot = 4;
    EXPECT_STATUS(carc_game_apply(game, &a), CARC_STATUS_INVALID_ARGUMENT);
    CHECK(contains(last_error_text(), "action.rot"));
    a.rot = 0;
    a.kind = CARC_ACTION_KIND_DEPLOY;
    a.figure = 9;
    EXPECT_STATUS(carc_game_apply(game, &a), CARC_STATUS_INVALID_ARGUMENT);
    a.kind = CARC_ACTION_KIND_DEPLOY_BARN;
    a.corner = 4;
    EXPECT_STATUS(carc_game_apply(game, &a), CARC_STATUS_INVALID_ARGUMENT);
    a.kind = CARC_ACTION_KIND_DRAW;
    a.tile = 0xFFFF;
    EXPECT_STATUS(carc_game_apply(game, &a), CARC_STATUS_INVALID_ARGUMENT);
    EXPECT_STATUS(carc_game_apply_draw(game, 100000), CARC_STATUS_INVALID_ARGUMENT);
    EXPECT_OK(carc_game_num_actions(game, &actions));
    EXPECT_STATUS(carc_game_apply_flat(game, actions, NULL), CARC_STATUS_INVALID_ARGUMENT);
    /* PASS is the last id and not legal while a tile waits to be placed. */
    EXPECT_STATUS(carc_game_apply_flat(game, actions - 1, NULL), CARC_STATUS_ILLEGAL_ACTION);
    EXPECT_OK(carc_game_state_hash(game, &after));
    CHECK(before == after);
    /* Seats and catalogue indices out of range. */
    {
        CarcSupply supply;
        uint32_t np = 0, ng = 0, kinds = 0;
        const char *id = NULL;
        uint16_t index = 0;
        uint8_t p[1];
        float g[1];
        EXPECT_STATUS(carc_game_supply(game, 2, &supply), CARC_STATUS_INVALID_ARGUMENT);
        EXPECT_STATUS(carc_game_observe(game, 2, p, 1, &np, g, 1, &ng),
                      CARC_STATUS_INVALID_ARGUMENT);
        EXPECT_OK(carc_tile_kind_count(&kinds));
        EXPECT_STATUS(carc_tile_kind_id(kinds, &id), CARC_STATUS_INVALID_ARGUMENT);
        CHECK(id == NULL);
        EXPECT_OK(carc_tile_kind_id(0, &id));
        EXPECT_OK(carc_tile_kind_index(id, &index));
        CHECK(index == 0);
        EXPECT_STATUS(carc_tile_kind_index("NO-SUCH-TILE", &index), CARC_STATUS_INVALID_ARGUMENT);
        EXPECT_STATUS(carc_tile_kind_index("\xff\xfe", &index), CARC_STATUS_INVALID_ARGUMENT);
        EXPECT_STATUS(carc_tile_feature_id(kinds, 0, &id), CARC_STATUS_INVALID_ARGUMENT);
        EXPECT_STATUS(carc_tile_feature_id(0, 200, &id), CARC_STATUS_INVALID_ARGUMENT);
        EXPECT_OK(carc_tile_kind_index("BASE-D", &index));
        EXPECT_OK(carc_tile_feature_id(index, 0, &id));
        CHECK(strlen(id) >= 2);
    }
}

static void test_last_error(CarcGame *game) {
    CarcAction a;
    uint32_t needed = 0, n = 0;
    char msg[512];
    char tiny[2] = {'x', 'x'};
    uint8_t poisoned = 9;
    memset(&a, 0, sizeof a);
    a.kind = CARC_ACTION_KIND_PLACE_TILE;
    a.x = 50;
    EXPECT_STATUS(carc_game_apply(game, &a), CARC_STATUS_ILLEGAL_ACTION);
    EXPECT_OK(carc_game_last_error(game, NULL, 0, &needed));
    CHECK(needed > 10);
    EXPECT_STATUS(carc_game_last_error(game, tiny, 2, &n), CARC_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == needed && tiny[0] == 'x');
    EXPECT_OK(carc_game_last_error(game, msg, sizeof msg, &n));
    CHECK(contains(msg, "carc_game_apply") && contains(msg, "x=50"));
    /* Reading the message does not change it; nor does a successful call. */
    EXPECT_OK(carc_game_num_players(game, &n));
    EXPECT_OK(carc_game_last_error(game, msg, sizeof msg, &n));
    CHECK(contains(msg, "x=50"));
    EXPECT_OK(carc_game_is_poisoned(game, &poisoned));
    CHECK(poisoned == 0);
}

static void test_configs(void) {
    static const struct {
        const char *json;
        const char *field;
    } bad[] = {
        {"{", "JSON"},
        {"", "JSON"},
        {"[2]", "config"},
        {"{\"players\":2}", "sets"},
        {"{\"players\":9,\"sets\":[\"base\"]}", "players"},
        {"{\"players\":1,\"sets\":[\"base\"]}", "players"},
        {"{\"players\":2,\"sets\":[\"river1\"]}", "sets"},
        {"{\"players\":2,\"sets\":[\"base\",\"catapult\"]}", "sets[1]"},
        {"{\"players\":2,\"sets\":[\"base\"],\"edition\":\"C9\"}", "edition"},
        {"{\"players\":2,\"sets\":[\"base\"],\"rules\":{\"farmers\":\"yes\"}}", "rules.farmers"},
        {"{\"players\":2,\"sets\":[\"base\"],\"figures\":{\"abbot\":3}}", "figures.abbot"},
        {"{\"players\":2,\"sets\":[\"base\"],\"figures\":{\"mayor\":1}}", "figures.mayor"},
        {"{\"players\":2,\"sets\":[\"base\"],\"seed\":-1}", "seed"},
        {"{\"players\":2,\"sets\":[\"base\"],\"chance\":\"dice\"}", "chance"},
        {"{\"players\":2,\"sets\":[\"base\"],\"window\":2}", "window"},
        {"{\"players\":2,\"sets\":[\"base\"],\"colour\":\"red\"}", "colour"},
    };
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CarcGame *game = (CarcGame *)&i;
        EXPECT_STATUS(carc_game_new(bad[i].json, &game), CARC_STATUS_INVALID_CONFIG);
        CHECK(game == (CarcGame *)&i);
        if (!contains(last_error_text(), bad[i].field)) {
            fprintf(stderr, "config %s: message %s does not name %s\n", bad[i].json,
                    last_error_text(), bad[i].field);
            CHECK(!"the message names the field");
        }
    }
    {
        CarcGame *game = (CarcGame *)&i;
        EXPECT_STATUS(carc_game_new("{\"players\":2,\"sets\":[\"b\xff\"]}", &game),
                      CARC_STATUS_INVALID_ARGUMENT);
        CHECK(game == (CarcGame *)&i);
    }
}

/* Plays the game to its end with the first legal action each time. */
static void finish_game(CarcGame *game) {
    static CarcAction list[4096];
    uint8_t terminal = 0;
    uint32_t n = 0;
    int guard = 0;
    for (;;) {
        EXPECT_OK(carc_game_is_terminal(game, &terminal));
        if (terminal || guard++ > 5000) {
            break;
        }
        EXPECT_OK(carc_game_legal_actions(game, list, 4096, &n));
        if (n == 0) {
            break;
        }
        EXPECT_OK(carc_game_apply(game, &list[n - 1]));
    }
    CHECK(terminal == 1);
}

static char *record_of(const CarcGame *game) {
    uint32_t needed = 0, n = 0;
    char *text;
    EXPECT_OK(carc_game_to_record(game, NULL, NULL, 0, &needed));
    text = (char *)malloc(needed + 64);
    EXPECT_OK(carc_game_to_record(game, NULL, text, needed, &n));
    return text;
}

/* Replaces the first occurrence of `from` in `text` (with room for 64 more bytes). */
static int replace(char *text, const char *from, const char *to) {
    char *at = strstr(text, from);
    size_t lf = strlen(from), lt = strlen(to);
    if (at == NULL) {
        return 0;
    }
    memmove(at + lt, at + lf, strlen(at + lf) + 1);
    memcpy(at, to, lt);
    return 1;
}

/* The start tiles of carc_game_placed_tiles and carc_game_last_placed, as docs/c-api.md
   says: BASE-D at (0, 0); with the Count the 12 squares of the City of Carcassonne row by
   row (COUNT-01 at (-2, -1) to COUNT-12 at (1, 1), CC1), then with a River its spring at
   (2, -1) (CC9); before any placement the last of them is the tile placed last. */
static const char *kind_id(uint16_t kind) {
    const char *id = "?";
    EXPECT_OK(carc_tile_kind_id(kind, &id));
    return id;
}

static void test_start_tiles(void) {
    static const struct {
        const char *config;
        uint32_t count;
        const char *last;
        int32_t last_x, last_y;
    } cases[] = {
        {"{\"players\":2,\"sets\":[\"base\"]}", 1, "BASE-D", 0, 0},
        {"{\"players\":2,\"sets\":[\"base\",\"count\"]}", 12, "COUNT-12", 1, 1},
        {"{\"players\":2,\"sets\":[\"base\",\"count\",\"river1\"]}", 13, "RIV1-SPRING", 2, -1},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CarcGame *game = NULL;
        CarcPlacedTile tiles[16], last;
        uint32_t n = 0, k;
        EXPECT_OK(carc_game_new(cases[i].config, &game));
        if (game == NULL) {
            continue;
        }
        EXPECT_OK(carc_game_placed_tiles(game, tiles, 16, &n));
        CHECK(n == cases[i].count);
        EXPECT_OK(carc_game_last_placed(game, &last));
        CHECK(strcmp(kind_id(last.kind), cases[i].last) == 0);
        CHECK(last.x == cases[i].last_x && last.y == cases[i].last_y);
        CHECK(n > 0 && memcmp(&tiles[n - 1], &last, sizeof last) == 0);
        if (cases[i].count >= 12) {
            for (k = 0; k < 12; k++) {
                char id[16];
                snprintf(id, sizeof id, "COUNT-%02u", (unsigned)(k + 1));
                CHECK(strcmp(kind_id(tiles[k].kind), id) == 0);
                CHECK(tiles[k].x == (int32_t)(k % 4) - 2 && tiles[k].y == (int32_t)(k / 4) - 1);
            }
        }
        carc_game_free(game);
    }
}

static void test_records_and_game_over(void) {
    CarcGame *game = NULL, *loaded = NULL, *sentinel = (CarcGame *)&loaded;
    char *record, *bad;
    CarcAction pass;
    uint32_t n = 0;
    int32_t scores[2];
    memset(&pass, 0, sizeof pass);
    pass.kind = CARC_ACTION_KIND_PASS;
    EXPECT_OK(carc_game_new(BASE2, &game));
    if (game == NULL) {
        return;
    }
    finish_game(game);
    /* After the game is over. */
    EXPECT_STATUS(carc_game_apply(game, &pass), CARC_STATUS_GAME_OVER);
    EXPECT_STATUS(carc_game_apply_draw(game, 0), CARC_STATUS_GAME_OVER);
    EXPECT_STATUS(carc_game_apply_flat(game, 0, NULL), CARC_STATUS_GAME_OVER);
    EXPECT_OK(carc_game_legal_actions(game, NULL, 0, &n));
    CHECK(n == 0);
    EXPECT_OK(carc_game_chance_outcomes(game, NULL, 0, &n));
    CHECK(n == 0);
    record = record_of(game);
    CHECK(contains(record, "\"id\":\"game\""));
    /* The record loads back, in both chance modes; an unknown mode is refused. */
    EXPECT_OK(carc_game_from_record(record, CARC_CHANCE_SAMPLED, &loaded));
    carc_game_free(loaded);
    loaded = sentinel;
    EXPECT_STATUS(carc_game_from_record(record, 2, &loaded), CARC_STATUS_INVALID_ARGUMENT);
    CHECK(loaded == sentinel);
    /* Malformed records. */
    EXPECT_STATUS(carc_game_from_record("{", CARC_CHANCE_SAMPLED, &loaded),
                  CARC_STATUS_BAD_RECORD);
    EXPECT_STATUS(carc_game_from_record("{}", CARC_CHANCE_SAMPLED, &loaded),
                  CARC_STATUS_BAD_RECORD);
    CHECK(contains(last_error_text(), "format"));
    bad = (char *)malloc(strlen(record) + 64);
    strcpy(bad, record);
    CHECK(replace(bad, "\"version\":1", "\"version\":7"));
    EXPECT_STATUS(carc_game_from_record(bad, CARC_CHANCE_SAMPLED, &loaded),
                  CARC_STATUS_BAD_RECORD);
    CHECK(contains(last_error_text(), "version"));
    strcpy(bad, record);
    CHECK(replace(bad, "\"players\":2", "\"players\":\"two\""));
    EXPECT_STATUS(carc_game_from_record(bad, CARC_CHANCE_SAMPLED, &loaded),
                  CARC_STATUS_BAD_RECORD);
    CHECK(contains(last_error_text(), "setup.players"));
    strcpy(bad, record);
    CHECK(replace(bad, "\"type\":\"place_tile\"", "\"type\":\"juggle\""));
    EXPECT_STATUS(carc_game_from_record(bad, CARC_CHANCE_SAMPLED, &loaded),
                  CARC_STATUS_BAD_RECORD);
    CHECK(contains(last_error_text(), "turns[0].actions[0]"));
    /* Well formed but not reproduced: other final scores, an illegal placement. */
    EXPECT_OK(carc_game_scores(game, scores, 2, &n));
    strcpy(bad, record);
    /* The first final score gains leading digits (a score list of another length is
       malformed: CARC_STATUS_BAD_RECORD). */
    CHECK(replace(bad, "\"final_scores\":[", "\"final_scores\":[1000"));
    EXPECT_STATUS(carc_game_from_record(bad, CARC_CHANCE_SAMPLED, &loaded),
                  CARC_STATUS_RECORD_MISMATCH);
    strcpy(bad, record);
    CHECK(replace(bad, "\"final_scores\":[", "\"final_scores\":[1000,"));
    EXPECT_STATUS(carc_game_from_record(bad, CARC_CHANCE_SAMPLED, &loaded),
                  CARC_STATUS_BAD_RECORD);
    CHECK(contains(last_error_text(), "final_scores"));
    strcpy(bad, record);
    CHECK(replace(bad, "\"type\":\"place_tile\",\"x\":", "\"type\":\"place_tile\",\"x\":40"));
    EXPECT_STATUS(carc_game_from_record(bad, CARC_CHANCE_SAMPLED, &loaded),
                  CARC_STATUS_RECORD_MISMATCH);
    CHECK(contains(last_error_text(), "turn 0 action 0"));
    CHECK(loaded == sentinel);
    /* A record that an id makes longer than carc_game_from_record reads (4 MiB) is not
       written: the id is refused, and nothing (not even the size) is written. */
    {
        size_t long_id = (size_t)5 << 20;
        char *id = (char *)malloc(long_id + 1);
        uint32_t untouched = 7;
        memset(id, 'x', long_id);
        id[long_id] = '\0';
        EXPECT_STATUS(carc_game_to_record(game, id, NULL, 0, &untouched),
                      CARC_STATUS_INVALID_ARGUMENT);
        CHECK(untouched == 7);
        CHECK(contains(last_error_text(), "id: the record would be"));
        free(id);
    }
    free(bad);
    free(record);
    carc_game_free(game);
}

static void test_explicit_chance(void) {
    CarcGame *game = NULL;
    CarcPhase phase = 0;
    CarcChanceOutcome outcomes[128];
    uint32_t n = 0, to_play = 0, i;
    CarcAction draw;
    EXPECT_OK(carc_game_new("{\"players\":3,\"sets\":[\"base\"],\"chance\":\"explicit\"}", &game));
    if (game == NULL) {
        return;
    }
    EXPECT_OK(carc_game_phase(game, &phase));
    CHECK(phase == CARC_PHASE_DRAW);
    EXPECT_OK(carc_game_to_play(game, &to_play));
    CHECK(to_play == CARC_NO_PLAYER);
    EXPECT_OK(carc_game_chance_outcomes(game, outcomes, 128, &n));
    CHECK(n >= 10);
    for (i = 0; i < n; i++) {
        CHECK(outcomes[i].probability > 0.0 && outcomes[i].is_token == 0 && outcomes[i].token == 0);
    }
    /* The flat interface has no chance ids. */
    EXPECT_STATUS(carc_game_apply_flat(game, 0, NULL), CARC_STATUS_ILLEGAL_ACTION);
    memset(&draw, 0, sizeof draw);
    draw.kind = CARC_ACTION_KIND_DRAW;
    draw.tile = outcomes[n - 1].tile;
    EXPECT_OK(carc_game_apply(game, &draw));
    EXPECT_OK(carc_game_phase(game, &phase));
    CHECK(phase == CARC_PHASE_PLACE_TILE);
    {
        uint16_t in_hand = 0;
        EXPECT_OK(carc_game_tile_in_hand(game, &in_hand));
        CHECK(in_hand == outcomes[n - 1].tile);
    }
    EXPECT_STATUS(carc_game_apply_draw(game, outcomes[0].tile), CARC_STATUS_ILLEGAL_ACTION);
    carc_game_free(game);
}

int main(void) {
    CarcGame *game = NULL;
    test_version();
    test_messages();
    test_null_handles();
    test_invalid_handles();
    test_configs();
    EXPECT_OK(carc_game_new(BASE2, &game));
    if (game != NULL) {
        test_null_arguments(game);
        test_buffers(game);
        test_actions(game);
        test_last_error(game);
        carc_game_free(game);
    }
    test_records_and_game_over();
    test_explicit_chance();
    test_start_tiles();
    return finish("c-status");
}
