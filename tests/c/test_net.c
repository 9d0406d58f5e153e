/* The learned players through the C API: the shipped network ("net") and the same network
 * read from its file ("net:<repo>/session/nets/base-2p.onnx") play whole 2-player base
 * games in which every chosen action is one of carc_game_legal_actions and applies; the
 * two bots, having the same weights, choose the same action at every decision of a game;
 * the same seed gives the same game twice; the shipped network guiding a search
 * ("net:search=4") chooses legal actions; a game of 3 players is refused by
 * carc_bot_choose naming the player count, and a missing file is refused by
 * carc_bot_new naming its path.
 *
 * Usage: test_net REPO [games]   (REPO: the root of the repository, where
 *                                 session/nets/base-2p.onnx is; games: how many games
 *                                 each check plays, default 1) */
#include "check.h"

#define MAX_DECISIONS 1024

static int spec_is(const CarcBot *bot, const char *want) {
    static char spec[4096];
    uint32_t needed = 0;
    return carc_bot_spec(bot, spec, (uint32_t)sizeof spec, &needed) == CARC_STATUS_OK &&
           strcmp(spec, want) == 0;
}

/* A whole game of the 2-player base game with `seed`, seat s choosing with bots[s]. With
 * `cross`, the other bot is asked at every decision too and must choose what the deciding
 * bot chose. The actions are written to `taken` (at most MAX_DECISIONS), their number to
 * `*count`, the final scores to `scores` and the state hash to `*hash`. */
static void play(uint64_t seed, CarcBot **bots, int cross, CarcAction *taken,
                 uint32_t *count, int32_t *scores, uint64_t *hash) {
    char config[96];
    CarcGame *game = NULL;
    uint8_t over = 0;
    uint32_t n = 0, decisions = 0, illegal = 0, refused = 0, differ = 0;
    snprintf(config, sizeof config, "{\"players\":2,\"sets\":[\"base\"],\"seed\":%llu}",
             (unsigned long long)seed);
    *count = 0;
    EXPECT_OK(carc_game_new(config, &game));
    if (game == NULL) {
        return;
    }
    while (carc_game_is_terminal(game, &over) == CARC_STATUS_OK && !over &&
           decisions < MAX_DECISIONS) {
        uint32_t seat = 0;
        CarcAction action = {0}, other = {0};
        EXPECT_OK(carc_game_to_play(game, &seat));
        if (carc_bot_choose(bots[seat % 2], game, &action) != CARC_STATUS_OK) {
            CHECK(!"carc_bot_choose failed");
            fprintf(stderr, "  %s\n", last_error_text());
            break;
        }
        illegal += !is_listed(game, &action);
        if (cross) {
            EXPECT_OK(carc_bot_choose(bots[1 - seat % 2], game, &other));
            differ += !same_action(&action, &other);
        }
        if (carc_game_apply(game, &action) != CARC_STATUS_OK) {
            refused++;
            break;
        }
        taken[decisions++] = action;
    }
    CHECK(over == 1);
    CHECK(illegal == 0);
    CHECK(refused == 0);
    CHECK(differ == 0);
    /* A whole game: each of the 71 tiles after the start tile is placed by a decision
     * (a tile that fits nowhere is discarded, rarely), and a follower decision follows
     * a placement whenever a follower can go. */
    CHECK(decisions > 71);
    *count = decisions;
    EXPECT_OK(carc_game_scores(game, scores, 2, &n));
    CHECK(n == 2);
    EXPECT_OK(carc_game_state_hash(game, hash));
    carc_game_free(game);
}

/* The shipped network against the file's: each plays either seat in turn, and at every
 * decision the other bot, with the same weights, makes the same choice. */
static void shipped_and_file_agree(const char *file_spec, int games) {
    static CarcAction taken[MAX_DECISIONS];
    int g;
    for (g = 0; g < games; g++) {
        CarcBot *shipped = new_bot("net", (uint64_t)g);
        CarcBot *file = new_bot(file_spec, (uint64_t)g + 100);
        CarcBot *bots[2];
        int32_t scores[2];
        uint32_t count = 0;
        uint64_t hash = 0;
        bots[g % 2] = shipped;
        bots[1 - g % 2] = file;
        play(500 + (uint64_t)g, bots, 1, taken, &count, scores, &hash);
        carc_bot_free(shipped);
        carc_bot_free(file);
    }
}

/* The same seed twice gives the same game: `spec` against greedy (which breaks its ties
 * with the bot's random sequence), both bots made anew from the same seeds. */
static void same_seed_same_game(const char *spec, int games) {
    static CarcAction first[MAX_DECISIONS], second[MAX_DECISIONS];
    int g;
    for (g = 0; g < games; g++) {
        int32_t scores[2][2];
        uint32_t count[2] = {0, 0}, i, same = 1;
        uint64_t hash[2] = {0, 0};
        int round;
        for (round = 0; round < 2; round++) {
            CarcBot *bots[2];
            bots[0] = new_bot(spec, 7 + (uint64_t)g);
            bots[1] = new_bot("greedy", 8 + (uint64_t)g);
            play(700 + (uint64_t)g, bots, 0, round == 0 ? first : second, &count[round],
                 scores[round], &hash[round]);
            carc_bot_free(bots[0]);
            carc_bot_free(bots[1]);
        }
        CHECK(count[0] == count[1]);
        for (i = 0; i < count[0] && i < count[1]; i++) {
            same = same && same_action(&first[i], &second[i]);
        }
        CHECK(same);
        CHECK(scores[0][0] == scores[1][0] && scores[0][1] == scores[1][1]);
        CHECK(hash[0] == hash[1]);
    }
}

/* The shipped network guiding a search of 4 iterations: a few decisions, each legal. */
static void guided_search(void) {
    CarcBot *bot = new_bot("net:search=4", 3);
    CarcGame *game = NULL;
    int step;
    CHECK(spec_is(bot, "net:search=4"));
    EXPECT_OK(carc_game_new("{\"players\":2,\"sets\":[\"base\"],\"seed\":9}", &game));
    for (step = 0; step < 6 && game != NULL; step++) {
        CarcAction action;
        EXPECT_OK(carc_bot_choose(bot, game, &action));
        CHECK(is_listed(game, &action));
        EXPECT_OK(carc_game_apply(game, &action));
    }
    carc_game_free(game);
    carc_bot_free(bot);
}

static void refusals(const char *repo) {
    CarcBot *bot = (CarcBot *)&checks_passed; /* a sentinel that must not change */
    CarcBot *sentinel = bot;
    CarcGame *three = NULL;
    CarcAction action = {0};
    char missing[4096];

    /* A network file that does not exist: refused when the spec is read, naming it. */
    snprintf(missing, sizeof missing, "net:%s/session/nets/no-such-network.onnx", repo);
    EXPECT_STATUS(carc_bot_new(missing, 1, &bot), CARC_STATUS_INVALID_ARGUMENT);
    CHECK(bot == sentinel);
    CHECK(strstr(last_error_text(), missing + strlen("net:")) != NULL);
    /* A budget of 0 for the shipped network's search. */
    EXPECT_STATUS(carc_bot_new("net:search=0", 1, &bot), CARC_STATUS_INVALID_ARGUMENT);
    CHECK(bot == sentinel);
    CHECK(strstr(last_error_text(), "search=\"0\"") != NULL);

    /* The shipped network was made for 2 players: a 3-player game is refused, nothing is
     * written, and the bot still plays the game it was made for. */
    bot = new_bot("net", 1);
    EXPECT_OK(carc_game_new("{\"players\":3,\"sets\":[\"base\"],\"seed\":1}", &three));
    action.x = 1234;
    EXPECT_STATUS(carc_bot_choose(bot, three, &action), CARC_STATUS_INVALID_ARGUMENT);
    CHECK(action.x == 1234);
    CHECK(strstr(last_error_text(), "made for 2 players, this game has 3") != NULL);
    carc_game_free(three);
    carc_bot_free(bot);
}

int main(int argc, char **argv) {
    static char file_spec[4096];
    const char *repo;
    int games;
    CarcBot *bot;
    if (argc < 2) {
        fprintf(stderr, "usage: test_net REPO [games]\n");
        return 2;
    }
    repo = argv[1];
    games = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 1;
    if (games < 1) {
        games = 1;
    }
    snprintf(file_spec, sizeof file_spec, "net:%s/session/nets/base-2p.onnx", repo);

    bot = new_bot("net", 0);
    CHECK(spec_is(bot, "net"));
    carc_bot_free(bot);
    bot = new_bot(file_spec, 0);
    CHECK(spec_is(bot, file_spec));
    carc_bot_free(bot);

    shipped_and_file_agree(file_spec, games);
    same_seed_same_game("net", games);
    same_seed_same_game(file_spec, games);
    guided_search();
    refusals(repo);
    return finish("test_net");
}
