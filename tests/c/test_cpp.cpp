// The header from C++: it compiles as C++ (extern "C", typed enums), links against the
// static library, and a game played through it ends with the record's scores.
#include "carcassonne.h"

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

struct GameDeleter {
    void operator()(CarcGame *game) const { carc_game_free(game); }
};
using GamePtr = std::unique_ptr<CarcGame, GameDeleter>;

long passed = 0;
long failed = 0;

void check(bool ok, const char *what, int line) {
    if (ok) {
        ++passed;
    } else {
        ++failed;
        std::fprintf(stderr, "test_cpp.cpp:%d: check failed: %s\n", line, what);
    }
}
#define CHECK(cond) check((cond), #cond, __LINE__)

GamePtr make_game(const char *config) {
    CarcGame *raw = nullptr;
    CHECK(carc_game_new(config, &raw) == CARC_STATUS_OK);
    return GamePtr(raw);
}

std::vector<int32_t> scores(const CarcGame *game) {
    uint32_t n = 0;
    CHECK(carc_game_scores(game, nullptr, 0, &n) == CARC_STATUS_OK);
    std::vector<int32_t> out(n);
    CHECK(carc_game_scores(game, out.data(), n, &n) == CARC_STATUS_OK);
    return out;
}

std::string record(const CarcGame *game) {
    uint32_t n = 0;
    CHECK(carc_game_to_record(game, "cpp", nullptr, 0, &n) == CARC_STATUS_OK);
    std::string text(n, '\0');
    CHECK(carc_game_to_record(game, "cpp", &text[0], n, &n) == CARC_STATUS_OK);
    text.resize(n - 1);
    return text;
}

}  // namespace

int main() {
    static_assert(sizeof(CarcAction) == 32, "CarcAction is 32 bytes");
    static_assert(sizeof(CarcPlacedTile) == 12, "CarcPlacedTile is 12 bytes");
    static_assert(CARC_STATUS_OK == 0, "OK is 0");
    CHECK(carc_abi_version() == CARC_ABI_VERSION);

    GamePtr game = make_game(
        R"({"players":3,"sets":["base","river1","princess-and-dragon","abbey-and-mayor"],)"
        R"("figures":{"abbot":1},"seed":2024})");
    CHECK(game != nullptr);
    if (!game) {
        return 1;
    }
    std::vector<CarcAction> legal;
    uint8_t terminal = 0;
    uint32_t turn = 0;
    while (carc_game_is_terminal(game.get(), &terminal) == CARC_STATUS_OK && !terminal) {
        uint32_t n = 0;
        CHECK(carc_game_legal_actions(game.get(), nullptr, 0, &n) == CARC_STATUS_OK);
        legal.resize(n);
        CHECK(carc_game_legal_actions(game.get(), legal.data(), n, &n) == CARC_STATUS_OK);
        CHECK(n > 0);
        if (n == 0) {
            break;
        }
        const CarcAction &pick = legal[(turn * 7919u) % n];
        CHECK(carc_game_apply(game.get(), &pick) == CARC_STATUS_OK);
        ++turn;
    }
    CHECK(terminal == 1);
    const std::vector<int32_t> played = scores(game.get());
    CarcGame *raw = nullptr;
    CHECK(carc_game_from_record(record(game.get()).c_str(), CARC_CHANCE_EXPLICIT, &raw) ==
          CARC_STATUS_OK);
    GamePtr loaded(raw);
    CHECK(loaded && scores(loaded.get()) == played);
    CHECK(std::strcmp(carc_status_message(CARC_STATUS_GAME_OVER), "the game is over") == 0);
    std::printf("c++-static: %ld passed, %ld failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
