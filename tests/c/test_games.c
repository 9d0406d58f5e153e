/* Complete games through the C API with every set: random legal decisions (structured
 * actions and flat ids), explicit chance, observations, and a record round trip whose
 * replayed scores must equal the played ones.
 *
 * Usage: test_games [games_per_config]   (default 2) */
/* It calls the per-set getters kept for one release over the state tables. */
#define CARC_NO_DEPRECATED_WARNINGS
#include "check.h"

static const char *const CONFIGS[] = {
    "{\"players\":2,\"sets\":[\"base\"],\"seed\":1}",
    "{\"players\":3,\"sets\":[\"base\"],\"figures\":{\"abbot\":1},\"seed\":2}",
    "{\"players\":2,\"edition\":\"C1\",\"sets\":[\"base\"],\"rules\":{\"farmers\":false},"
    "\"seed\":3}",
    "{\"players\":4,\"sets\":[\"base\",\"river1\"],\"seed\":4}",
    "{\"players\":2,\"sets\":[\"base\",\"river2\"],\"seed\":5}",
    "{\"players\":5,\"sets\":[\"base\",\"river1\",\"river2\"],\"seed\":6}",
    "{\"players\":3,\"sets\":[\"base\",\"princess-and-dragon\"],\"seed\":7}",
    "{\"players\":2,\"sets\":[\"base\",\"princess-and-dragon\"],"
    "\"rules\":{\"fairy\":\"on-tile\",\"princess\":\"must\",\"dragon_move\":\"after-scoring\"},"
    "\"chance\":\"explicit\",\"seed\":8}",
    "{\"players\":4,\"sets\":[\"base\",\"abbey-and-mayor\"],\"seed\":9}",
    "{\"players\":3,\"sets\":[\"base\",\"abbey-and-mayor\"],"
    "\"rules\":{\"wagon_move\":\"C1\",\"barn_placement\":\"occupied\"},\"figures\":{\"abbot\":1},"
    "\"chance\":\"explicit\",\"seed\":10}",
    "{\"players\":6,\"sets\":[\"base\",\"river1\",\"river2\",\"princess-and-dragon\","
    "\"abbey-and-mayor\"],\"figures\":{\"abbot\":1},\"window\":48,\"seed\":11}",
    "{\"players\":4,\"sets\":[\"base\",\"count\",\"king-and-robber\",\"cult\","
    "\"bridges-castles-and-bazaars\"],\"seed\":12}",
    "{\"players\":3,\"sets\":[\"base\",\"inns-and-cathedrals\",\"traders-and-builders\"],"
    "\"chance\":\"explicit\",\"seed\":13}",
    "{\"players\":2,\"sets\":[\"base\",\"tower\"],\"seed\":14}",
    "{\"players\":4,\"sets\":[\"base\",\"river1\",\"river2\",\"princess-and-dragon\",\"abbey-and-mayor\","
    "\"count\",\"king-and-robber\",\"cult\",\"bridges-castles-and-bazaars\",\"inns-and-cathedrals\","
    "\"traders-and-builders\",\"tower\",\"hills-and-sheep\"],\"figures\":{\"abbot\":1},\"seed\":15}",
    "{\"players\":3,\"sets\":[\"base\",\"hills-and-sheep\"],\"seed\":16}",
    "{\"players\":2,\"sets\":[\"base\",\"princess-and-dragon\",\"traders-and-builders\",\"hills-and-sheep\"],"
    "\"chance\":\"explicit\",\"seed\":17}",
};
#define NUM_CONFIGS (sizeof CONFIGS / sizeof CONFIGS[0])

/* Game-wide buffers (the largest lists stay well below these sizes). */
#define MAX_ACTIONS 4096
static CarcAction actions[MAX_ACTIONS];
static CarcChanceOutcome outcomes[512];
static CarcPlacedTile tiles_a[512], tiles_b[512];
static CarcBoardFigure figures_a[256], figures_b[256];

static uint32_t legal_actions(const CarcGame *game) {
    uint32_t n = 0;
    EXPECT_OK(carc_game_legal_actions(game, actions, MAX_ACTIONS, &n));
    return n;
}

static uint32_t players_of(const CarcGame *game) {
    uint32_t players = 0;
    EXPECT_OK(carc_game_num_players(game, &players));
    return players;
}

/* B1: every player owns 7 followers; each is either in the supply or on the board (without
 * the Count and the Tower). */
static void check_followers(const CarcGame *game, uint32_t followers_each) {
    uint32_t players = players_of(game), n = 0, p, i;
    EXPECT_OK(carc_game_board_figures(game, figures_a, 256, &n));
    for (p = 0; p < players; p++) {
        CarcSupply supply;
        uint32_t on_board = 0;
        EXPECT_OK(carc_game_supply(game, p, &supply));
        for (i = 0; i < n; i++) {
            if (figures_a[i].owner == p && figures_a[i].figure == CARC_FIGURE_FOLLOWER) {
                on_board++;
            }
        }
        CHECK(supply.follower + on_board == followers_each);
    }
}

/* Tiles left per kind add up to the tiles left; the dragon and the fairy stand on tiles. */
static void check_board(const CarcGame *game) {
    uint8_t remaining[1024];
    uint32_t kinds = 0, n = 0, left = 0, sum = 0, i, placed = 0;
    CarcDragon dragon;
    CarcFairy fairy;
    EXPECT_OK(carc_tile_kind_count(&kinds));
    EXPECT_OK(carc_game_remaining_tiles(game, remaining, 1024, &n));
    CHECK(n == kinds);
    for (i = 0; i < n; i++) {
        sum += remaining[i];
    }
    EXPECT_OK(carc_game_tiles_left(game, &left));
    CHECK(sum == left);
    EXPECT_OK(carc_game_placed_tiles(game, tiles_a, 512, &placed));
    CHECK(placed >= 1);
    {
        /* The start tile, or the City of Carcassonne's quarters (CC1), lie at (0, 0). */
        int origin = 0;
        for (i = 0; i < placed; i++) {
            origin |= tiles_a[i].x == 0 && tiles_a[i].y == 0;
        }
        CHECK(origin);
    }
    EXPECT_OK(carc_game_dragon(game, &dragon));
    EXPECT_OK(carc_game_fairy(game, &fairy));
    if (dragon.on_board) {
        int found = 0;
        for (i = 0; i < placed; i++) {
            found |= tiles_a[i].x == dragon.x && tiles_a[i].y == dragon.y;
        }
        CHECK(found);
    }
    if (fairy.on_board) {
        int found = 0;
        for (i = 0; i < placed; i++) {
            found |= tiles_a[i].x == fairy.x && tiles_a[i].y == fairy.y;
        }
        CHECK(found);
    }
}

/* The mask and the structured list describe the same decision. */
static void check_mask(const CarcGame *game, uint32_t legal, int8_t *mask, uint32_t size) {
    CarcMaskInfo info;
    uint32_t needed = 0, i, ones = 0, other = 0;
    EXPECT_OK(carc_game_legal_mask(game, mask, size, &needed, &info));
    CHECK(needed == size);
    for (i = 0; i < size; i++) {
        ones += mask[i] == 1;
        other += mask[i] != 0 && mask[i] != 1;
    }
    CHECK(other == 0);
    CHECK(info.legal == legal);
    CHECK(info.offered == ones);
    CHECK(info.offered <= legal);
}

/* Applies `chosen` through its flat ids on `game` and structurally on a clone; the two
 * states must hash alike. Returns 0 when the action has no flat id. */
static int apply_by_flat_ids(CarcGame *game, const CarcAction *chosen) {
    uint32_t first = 0, second = 0;
    uint8_t completed = 9;
    uint64_t h1 = 0, h2 = 0;
    CarcGame *twin = NULL;
    CarcStatus s = carc_game_action_to_flat(game, chosen, &first, &second);
    if (s == CARC_STATUS_INVALID_ARGUMENT) {
        return 0; /* outside the window */
    }
    EXPECT_OK(s);
    EXPECT_OK(carc_game_clone(game, &twin));
    EXPECT_OK(carc_game_apply(twin, chosen));
    EXPECT_OK(carc_game_apply_flat(game, first, &completed));
    if (second == CARC_NO_ACTION_ID) {
        CHECK(completed == 1);
    } else {
        CHECK(completed == 0);
        EXPECT_OK(carc_game_apply_flat(game, second, &completed));
        CHECK(completed == 1);
    }
    EXPECT_OK(carc_game_state_hash(game, &h1));
    EXPECT_OK(carc_game_state_hash(twin, &h2));
    CHECK(h1 == h2);
    carc_game_free(twin);
    return 1;
}

static void observe(const CarcGame *game, uint32_t player, const CarcObservationSizes *sizes,
                    uint8_t *planes, float *globals) {
    uint32_t np = 0, ng = 0, i, occupied = 0, placed = 0;
    EXPECT_OK(carc_game_observe(game, player, planes, sizes->planes_len, &np, globals,
                                sizes->globals_len, &ng));
    CHECK(np == sizes->planes_len && ng == sizes->globals_len);
    /* Plane 0 marks occupied squares: the start tile is always in the window. */
    for (i = 0; i < sizes->window * sizes->window; i++) {
        occupied += planes[i];
    }
    EXPECT_OK(carc_game_placed_tiles(game, NULL, 0, &placed));
    CHECK(occupied >= 1 && occupied <= placed);
}

static void round_trip(const CarcGame *game) {
    uint32_t needed = 0, n_a = 0, n_b = 0, players = players_of(game), i;
    int32_t scores_a[6], scores_b[6];
    char *record;
    CarcGame *loaded = NULL;
    uint8_t terminal = 0;
    EXPECT_OK(carc_game_to_record(game, "c-test", NULL, 0, &needed));
    CHECK(needed > 2);
    record = (char *)malloc(needed);
    EXPECT_STATUS(carc_game_to_record(game, "c-test", record, needed - 1, &n_a),
                  CARC_STATUS_BUFFER_TOO_SMALL);
    CHECK(n_a == needed);
    EXPECT_OK(carc_game_to_record(game, "c-test", record, needed, &n_a));
    CHECK(strlen(record) + 1 == needed);
    CHECK(strstr(record, "\"id\":\"c-test\"") != NULL);
    EXPECT_OK(carc_game_from_record(record, CARC_CHANCE_EXPLICIT, &loaded));
    if (loaded != NULL) {
        EXPECT_OK(carc_game_is_terminal(loaded, &terminal));
        CHECK(terminal == 1);
        EXPECT_OK(carc_game_scores(game, scores_a, 6, &n_a));
        EXPECT_OK(carc_game_scores(loaded, scores_b, 6, &n_b));
        CHECK(n_a == players && n_b == players);
        for (i = 0; i < players; i++) {
            CHECK(scores_a[i] == scores_b[i]);
        }
        /* Once the game is over, the scores if it ended now are its final scores. */
        EXPECT_OK(carc_game_scores_if_ended_now(game, scores_b, 6, &n_b));
        CHECK(n_b == players);
        for (i = 0; i < players; i++) {
            CHECK(scores_a[i] == scores_b[i]);
        }
        EXPECT_OK(carc_game_placed_tiles(game, tiles_a, 512, &n_a));
        EXPECT_OK(carc_game_placed_tiles(loaded, tiles_b, 512, &n_b));
        CHECK(n_a == n_b && memcmp(tiles_a, tiles_b, n_a * sizeof tiles_a[0]) == 0);
        EXPECT_OK(carc_game_board_figures(game, figures_a, 256, &n_a));
        EXPECT_OK(carc_game_board_figures(loaded, figures_b, 256, &n_b));
        CHECK(n_a == n_b && memcmp(figures_a, figures_b, n_a * sizeof figures_a[0]) == 0);
    }
    carc_game_free(loaded);
    free(record);
}

static void check_rendering(const CarcGame *game) {
    uint32_t needed = 0, got = 0;
    char *text;
    EXPECT_OK(carc_game_render_svg(game, NULL, 0, &needed));
    text = (char *)malloc(needed);
    EXPECT_OK(carc_game_render_svg(game, text, needed, &got));
    CHECK(got == needed && strstr(text, "<svg") != NULL && strlen(text) + 1 == needed);
    free(text);
    EXPECT_OK(carc_game_render_text(game, NULL, 0, &needed));
    text = (char *)malloc(needed);
    EXPECT_OK(carc_game_render_text(game, text, needed, &got));
    CHECK(got == needed && strlen(text) + 1 == needed);
    free(text);
}

/* Draws a tile, or a token of the sheep bag (HS1), by the outcome probabilities
 * (explicit chance). */
static void draw(CarcGame *game, TestRng *rng) {
    uint32_t n = 0, i;
    double total = 0.0, pick = rng_unit(rng), acc = 0.0;
    EXPECT_OK(carc_game_chance_outcomes(game, outcomes, 512, &n));
    CHECK(n >= 1);
    for (i = 0; i < n; i++) {
        total += outcomes[i].probability;
    }
    CHECK(total > 0.999 && total < 1.001);
    for (i = 0; i + 1 < n; i++) {
        acc += outcomes[i].probability;
        if (pick < acc) {
            break;
        }
    }
    if (outcomes[i].is_token) {
        CarcAction token;
        memset(&token, 0, sizeof token);
        token.kind = CARC_ACTION_KIND_DRAW_TOKEN;
        token.feature = CARC_NO_FEATURE;
        token.token = outcomes[i].token;
        EXPECT_OK(carc_game_apply(game, &token));
    } else {
        EXPECT_OK(carc_game_apply_draw(game, outcomes[i].tile));
    }
}

static void play(const char *config, uint64_t seed) {
    CarcGame *game = NULL;
    CarcObservationSizes sizes;
    uint8_t *planes;
    float *globals;
    int8_t *mask;
    TestRng rng;
    uint32_t decisions = 0, players, followers_each = 7;
    uint8_t terminal = 0;
    rng.state = seed * UINT64_C(0x9E3779B97F4A7C15) + 1;
    EXPECT_OK(carc_game_new(config, &game));
    if (game == NULL) {
        return;
    }
    if (strstr(config, "\"follower\"") != NULL) {
        followers_each = 0; /* not used by these configurations */
    }
    if (strstr(config, "\"count\"") != NULL || strstr(config, "\"tower\"") != NULL) {
        /* Followers also stand in the City of Carcassonne (CC2) or are held prisoner
         * (TW4), which this check does not read. */
        followers_each = 0;
    }
    players = players_of(game);
    EXPECT_OK(carc_game_observation_sizes(game, &sizes));
    planes = (uint8_t *)malloc(sizes.planes_len);
    globals = (float *)malloc(sizes.globals_len * sizeof(float));
    mask = (int8_t *)malloc(sizes.actions);
    for (;;) {
        CarcPhase phase = 0;
        uint32_t to_play = 0, n;
        EXPECT_OK(carc_game_is_terminal(game, &terminal));
        if (terminal) {
            break;
        }
        EXPECT_OK(carc_game_phase(game, &phase));
        EXPECT_OK(carc_game_to_play(game, &to_play));
        if (phase == CARC_PHASE_DRAW || phase == CARC_PHASE_DRAW_TOKEN) {
            CHECK(to_play == CARC_NO_PLAYER);
            draw(game, &rng);
            continue;
        }
        CHECK(to_play < players);
        n = legal_actions(game);
        CHECK(n >= 1);
        if (n == 0) {
            break;
        }
        if (decisions % 7 == 0) {
            uint16_t in_hand = 0;
            EXPECT_OK(carc_game_tile_in_hand(game, &in_hand));
            CHECK((phase == CARC_PHASE_PLACE_TILE) == (in_hand != CARC_NO_TILE));
            check_mask(game, n, mask, sizes.actions);
            observe(game, to_play, &sizes, planes, globals);
            check_board(game);
            if (followers_each) {
                check_followers(game, followers_each);
            }
        }
        {
            CarcAction chosen = actions[rng_below(&rng, n)];
            uint8_t legal = 0;
            EXPECT_OK(carc_game_is_legal(game, &chosen, &legal));
            CHECK(legal == 1);
            if (decisions % 3 != 1 || !apply_by_flat_ids(game, &chosen)) {
                EXPECT_OK(carc_game_apply(game, &chosen));
            }
        }
        decisions++;
        if (decisions > 20000) {
            CHECK(!"the game ends");
            break;
        }
    }
    CHECK(terminal == 1);
    CHECK(decisions > 10);
    {
        CarcPhase phase = 0;
        uint32_t to_play = 0;
        CarcAction pass;
        memset(&pass, 0, sizeof pass);
        pass.kind = CARC_ACTION_KIND_PASS;
        EXPECT_OK(carc_game_phase(game, &phase));
        CHECK(phase == CARC_PHASE_GAME_OVER);
        EXPECT_OK(carc_game_to_play(game, &to_play));
        CHECK(to_play == CARC_NO_PLAYER);
        CHECK(legal_actions(game) == 0);
        check_mask(game, 0, mask, sizes.actions);
        EXPECT_STATUS(carc_game_apply(game, &pass), CARC_STATUS_GAME_OVER);
        EXPECT_STATUS(carc_game_apply_flat(game, sizes.actions - 1, NULL), CARC_STATUS_GAME_OVER);
    }
    check_board(game);
    if (followers_each) {
        check_followers(game, followers_each);
    }
    round_trip(game);
    check_rendering(game);
    free(planes);
    free(globals);
    free(mask);
    carc_game_free(game);
}

int main(int argc, char **argv) {
    long games = argc > 1 ? strtol(argv[1], NULL, 10) : 2;
    size_t c;
    long g;
    for (c = 0; c < NUM_CONFIGS; c++) {
        for (g = 0; g < games; g++) {
            play(CONFIGS[c], (uint64_t)(c * 1000 + (size_t)g + 1));
        }
    }
    return finish("c-games");
}
