/* The built-in players through the C API: bots made from spec strings play whole games
 * with every set (every chosen action is one of the legal list and applies), the same
 * seed gives the same choices, MCTS beats random play, the search's targets
 * (carc_mcts_search) sum to 1 over the legal actions and the offered flat ids, and
 * mistakes are reported with their status and message.
 *
 * Usage: test_bots [iterations]   (MCTS iterations per decision in the games with every
 *                                  set and the seed check, default 20) */
#include "check.h"

static const char *const CONFIGS[] = {
    "{\"players\":2,\"sets\":[\"base\"],\"seed\":1}",
    "{\"players\":2,\"sets\":[\"base\",\"river1\",\"river2\"],\"figures\":{\"abbot\":1},"
    "\"seed\":2}",
    "{\"players\":3,\"sets\":[\"base\",\"princess-and-dragon\"],\"chance\":\"explicit\","
    "\"seed\":3}",
    "{\"players\":4,\"sets\":[\"base\",\"river1\",\"river2\",\"princess-and-dragon\","
    "\"abbey-and-mayor\"],\"figures\":{\"abbot\":1},\"seed\":4}",
    "{\"players\":3,\"sets\":[\"base\",\"king-and-robber\",\"cult\"],\"seed\":5}",
    "{\"players\":4,\"sets\":[\"base\",\"inns-and-cathedrals\"],\"seed\":6}",
    "{\"players\":3,\"sets\":[\"base\",\"traders-and-builders\"],\"seed\":7}",
    "{\"players\":3,\"sets\":[\"base\",\"tower\"],\"seed\":8}",
    "{\"players\":4,\"sets\":[\"base\",\"river1\",\"river2\",\"princess-and-dragon\",\"abbey-and-mayor\","
    "\"count\",\"king-and-robber\",\"cult\",\"bridges-castles-and-bazaars\",\"inns-and-cathedrals\","
    "\"traders-and-builders\",\"tower\"],\"figures\":{\"abbot\":1},\"seed\":9}",
};
#define NUM_CONFIGS (sizeof CONFIGS / sizeof CONFIGS[0])

#define MAX_ACTIONS 4096
static CarcAction legal[MAX_ACTIONS];

/* Plays `config` to the end, seat s choosing with bots[s % nbots]; writes the scores. */
static void play(const char *config, CarcBot **bots, uint32_t nbots, int32_t *scores) {
    CarcGame *game = NULL;
    uint8_t over = 0;
    uint32_t n = 0, decisions = 0, illegal = 0;
    EXPECT_OK(carc_game_new(config, &game));
    if (game == NULL) {
        return;
    }
    while (carc_game_is_terminal(game, &over) == CARC_STATUS_OK && !over) {
        uint32_t seat = 0;
        CarcAction action;
        CarcPhase phase;
        EXPECT_OK(carc_game_phase(game, &phase));
        if (phase != CARC_PHASE_DRAW) {
            EXPECT_OK(carc_game_to_play(game, &seat));
        }
        if (carc_bot_choose(bots[seat % nbots], game, &action) != CARC_STATUS_OK) {
            CHECK(!"carc_bot_choose failed");
            fprintf(stderr, "  %s\n", last_error_text());
            break;
        }
        illegal += !is_listed(game, &action);
        if (carc_game_apply(game, &action) != CARC_STATUS_OK) {
            CHECK(!"a bot's action was refused");
            break;
        }
        decisions++;
    }
    CHECK(over == 1);
    CHECK(illegal == 0);
    CHECK(decisions > 20);
    EXPECT_OK(carc_game_scores(game, scores, 6, &n));
    carc_game_free(game);
}

static void every_set(const char *mcts) {
    size_t c;
    for (c = 0; c < NUM_CONFIGS; c++) {
        CarcBot *bots[3];
        int32_t scores[6];
        bots[0] = new_bot(mcts, c);
        bots[1] = new_bot("greedy", c);
        bots[2] = new_bot("random", c);
        play(CONFIGS[c], bots, 3, scores);
        carc_bot_free(bots[0]);
        carc_bot_free(bots[1]);
        carc_bot_free(bots[2]);
    }
}

static void same_seed_same_choice(const char *mcts) {
    CarcGame *game = NULL, *copy = NULL;
    CarcBot *a = new_bot(mcts, 42), *b = new_bot(mcts, 42);
    CarcAction x, y;
    int step;
    EXPECT_OK(carc_game_new("{\"players\":2,\"sets\":[\"base\"],\"seed\":5}", &game));
    EXPECT_OK(carc_game_clone(game, &copy));
    for (step = 0; step < 6; step++) {
        EXPECT_OK(carc_bot_choose(a, game, &x));
        EXPECT_OK(carc_bot_choose(b, copy, &y));
        CHECK(same_action(&x, &y));
        EXPECT_OK(carc_game_apply(game, &x));
        EXPECT_OK(carc_game_apply(copy, &y));
    }
    carc_bot_free(a);
    carc_bot_free(b);
    carc_game_free(game);
    carc_game_free(copy);
}

/* Two games against random play with 20 iterations per decision, whatever the budget of
 * the other checks (a budget of a few iterations is too small to judge strength). */
static void mcts_beats_random(void) {
    const char *mcts = "mcts:20";
    int g, wins = 0;
    for (g = 0; g < 2; g++) {
        char config[128];
        CarcBot *bots[2];
        int32_t scores[6];
        int me = g % 2;
        snprintf(config, sizeof config, "{\"players\":2,\"sets\":[\"base\"],\"seed\":%d}", 70 + g);
        bots[me] = new_bot(mcts, (uint64_t)g);
        bots[1 - me] = new_bot("random", (uint64_t)g);
        play(config, bots, 2, scores);
        wins += scores[me] > scores[1 - me];
        carc_bot_free(bots[0]);
        carc_bot_free(bots[1]);
    }
    CHECK(wins == 2);
}

static void mistakes(void) {
    CarcBot *bot = (CarcBot *)&checks_passed; /* a sentinel that must not change */
    CarcBot *sentinel = bot;
    CarcGame *game = NULL;
    CarcAction action = {0};
    char spec[32];
    uint32_t needed = 0;
    uint8_t over = 0;

    EXPECT_STATUS(carc_bot_new("mcts:lots", 1, &bot), CARC_STATUS_INVALID_ARGUMENT);
    CHECK(bot == sentinel);
    CHECK(strstr(last_error_text(), "\"lots\"") != NULL);
    EXPECT_STATUS(carc_bot_new("clever", 1, &bot), CARC_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(last_error_text(), "unknown bot") != NULL);
    EXPECT_STATUS(carc_bot_new(NULL, 1, &bot), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_bot_new("random", 1, NULL), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_bot_choose(NULL, NULL, &action), CARC_STATUS_NULL_ARGUMENT);

    bot = new_bot("mcts:5:threads=2", 1);
    EXPECT_STATUS(carc_bot_choose(bot, NULL, &action), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_OK(carc_bot_spec(bot, NULL, 0, &needed));
    CHECK(needed == strlen("mcts:5:threads=2") + 1);
    EXPECT_STATUS(carc_bot_spec(bot, spec, 4, &needed), CARC_STATUS_BUFFER_TOO_SMALL);
    EXPECT_OK(carc_bot_spec(bot, spec, sizeof spec, &needed));
    CHECK(strcmp(spec, "mcts:5:threads=2") == 0);

    /* A finished game: GAME_OVER, and the action is not written. */
    EXPECT_OK(carc_game_new("{\"players\":2,\"sets\":[\"base\"],\"seed\":9}", &game));
    while (carc_game_is_terminal(game, &over) == CARC_STATUS_OK && !over) {
        uint32_t n = 0;
        EXPECT_OK(carc_game_legal_actions(game, legal, MAX_ACTIONS, &n));
        EXPECT_OK(carc_game_apply(game, &legal[0]));
    }
    action.x = 1234;
    EXPECT_STATUS(carc_bot_choose(bot, game, &action), CARC_STATUS_GAME_OVER);
    CHECK(action.x == 1234);
    CHECK(strstr(last_error_text(), "carc_bot_choose") != NULL);
    carc_game_free(game);
    carc_bot_free(bot);
    carc_bot_free(NULL);
}

/* carc_mcts_search: the shares of the legal actions sum to 1, the flat policy sums to 1
 * over the ids the mask offers and is 0 elsewhere, the budget is kept, the same seed
 * gives the same shares; sizes first, clear errors for a budget of 0, short buffers, a
 * finished game and a game waiting for a draw. */
#define MAX_IDS 8192
static float shares[MAX_ACTIONS], shares_again[MAX_ACTIONS], policy[MAX_IDS];
static int8_t search_mask[MAX_IDS];

static void search_targets(const char *config, uint32_t iterations) {
    CarcGame *game = NULL;
    CarcSearchInfo info;
    double values[6] = {0}, sum = 0, offered = 0, value_sum = 0;
    uint32_t n = 0, i, needed = 0;
    int outside = 0, same = 1;
    EXPECT_OK(carc_game_new(config, &game));
    if (game == NULL) {
        return;
    }
    /* A few decisions in. */
    for (i = 0; i < 5; i++) {
        EXPECT_OK(carc_game_legal_actions(game, legal, MAX_ACTIONS, &n));
        EXPECT_OK(carc_game_apply(game, &legal[n - 1]));
    }
    EXPECT_OK(carc_mcts_search(game, iterations, 3, NULL, 0, NULL, 0, NULL, 0, &info));
    EXPECT_OK(carc_game_legal_actions(game, legal, MAX_ACTIONS, &n));
    CHECK(info.legal == n && info.iterations == 0);
    CHECK(info.actions <= MAX_IDS && info.players <= 6);
    EXPECT_OK(carc_mcts_search(game, iterations, 3, shares, n, policy, MAX_IDS, values, 6,
                               &info));
    CHECK(info.iterations == iterations);
    CHECK(info.best < n);
    EXPECT_OK(carc_game_legal_mask(game, search_mask, MAX_IDS, &needed, NULL));
    for (i = 0; i < n; i++) {
        sum += shares[i];
    }
    for (i = 0; i < info.actions; i++) {
        if (search_mask[i]) {
            offered += policy[i];
        } else if (policy[i] != 0.0f) {
            outside = 1;
        }
    }
    for (i = 0; i < info.players; i++) {
        value_sum += values[i];
    }
    CHECK(sum > 0.9999 && sum < 1.0001);
    CHECK(offered > 0.9999 && offered < 1.0001);
    CHECK(!outside);
    CHECK(values[info.player] - info.value < 1e-9 && info.value - values[info.player] < 1e-9);
    CHECK(value_sum > 0.0 && value_sum <= (double)info.players);
    EXPECT_OK(carc_mcts_search(game, iterations, 3, shares_again, n, NULL, 0, NULL, 0, &info));
    for (i = 0; i < n; i++) {
        same = same && shares[i] == shares_again[i];
    }
    CHECK(same);

    EXPECT_STATUS(carc_mcts_search(game, 0, 3, shares, n, NULL, 0, NULL, 0, &info),
                  CARC_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(last_error_text(), "iterations: 0") != NULL);
    EXPECT_STATUS(carc_mcts_search(game, 10, 3, shares, n - 1, NULL, 0, NULL, 0, &info),
                  CARC_STATUS_BUFFER_TOO_SMALL);
    CHECK(info.legal == n && strstr(last_error_text(), "shares needs") != NULL);
    EXPECT_STATUS(carc_mcts_search(game, 10, 3, shares, n, policy, 1, NULL, 0, &info),
                  CARC_STATUS_BUFFER_TOO_SMALL);
    EXPECT_STATUS(carc_mcts_search(game, 10, 3, shares, n, NULL, 5, NULL, 0, &info),
                  CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_mcts_search(NULL, 10, 3, shares, n, NULL, 0, NULL, 0, &info),
                  CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_mcts_search(game, 10, 3, shares, n, NULL, 0, NULL, 0, NULL),
                  CARC_STATUS_NULL_ARGUMENT);
    carc_game_free(game);
}

static void search_refusals(void) {
    CarcGame *game = NULL;
    CarcSearchInfo info;
    uint8_t over = 0;
    uint32_t n = 0;
    EXPECT_OK(carc_game_new("{\"players\":2,\"sets\":[\"base\"],\"seed\":2}", &game));
    while (carc_game_is_terminal(game, &over) == CARC_STATUS_OK && !over) {
        EXPECT_OK(carc_game_legal_actions(game, legal, MAX_ACTIONS, &n));
        EXPECT_OK(carc_game_apply(game, &legal[0]));
    }
    EXPECT_STATUS(carc_mcts_search(game, 10, 1, shares, MAX_ACTIONS, NULL, 0, NULL, 0, &info),
                  CARC_STATUS_GAME_OVER);
    CHECK(strstr(last_error_text(), "no decision to search") != NULL);
    carc_game_free(game);
    EXPECT_OK(carc_game_new(
        "{\"players\":2,\"sets\":[\"base\"],\"seed\":2,\"chance\":\"explicit\"}", &game));
    EXPECT_STATUS(carc_mcts_search(game, 10, 1, shares, MAX_ACTIONS, NULL, 0, NULL, 0, &info),
                  CARC_STATUS_ILLEGAL_ACTION);
    CHECK(strstr(last_error_text(), "waits for a draw") != NULL);
    carc_game_free(game);
}

int main(int argc, char **argv) {
    long iterations = argc > 1 ? strtol(argv[1], NULL, 10) : 20;
    char mcts[32];
    snprintf(mcts, sizeof mcts, "mcts:%ld", iterations < 1 ? 1 : iterations);
    every_set(mcts);
    same_seed_same_choice(mcts);
    mcts_beats_random();
    mistakes();
    search_targets(CONFIGS[0], (uint32_t)(iterations < 1 ? 1 : iterations) * 5);
    search_targets(CONFIGS[3], (uint32_t)(iterations < 1 ? 1 : iterations));
    search_refusals();
    return finish("test_bots");
}
