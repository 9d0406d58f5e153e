// A C++ client of the carcassonne C library: a small RAII wrapper that turns status codes
// into exceptions carrying the library's detailed message, then a 3-player game with The
// Princess & the Dragon where every seat picks a random legal action from its own seeded
// generator. Prints the final scores; exits with 1 on any failure.
//
// Built by examples/cpp/CMakeLists.txt against the installed package.
#include <carcassonne.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace carc {

// A failed call: the status and the library's detailed message.
class Error : public std::runtime_error {
  public:
    Error(CarcStatus status, const std::string &message)
        : std::runtime_error(message), status_(status) {}
    CarcStatus status() const { return status_; }

  private:
    CarcStatus status_;
};

// The calling thread's last failure message (for calls without a handle).
inline std::string thread_error() {
    uint32_t needed = 0;
    carc_last_error(nullptr, 0, &needed);
    std::string text(needed, '\0');
    if (needed == 0 || carc_last_error(&text[0], needed, &needed) != CARC_STATUS_OK)
        return "";
    text.resize(needed - 1);  // drop the NUL
    return text;
}

inline void check(CarcStatus status) {
    if (status != CARC_STATUS_OK)
        throw Error(status, std::string(carc_status_message(status)) + ": " + thread_error());
}

// Owns one CarcGame handle; movable, not copyable (use clone()).
class Game {
  public:
    explicit Game(const std::string &config_json) { check(carc_game_new(config_json.c_str(), &game_)); }
    Game(Game &&other) noexcept : game_(std::exchange(other.game_, nullptr)) {}
    Game &operator=(Game &&other) noexcept {
        std::swap(game_, other.game_);
        return *this;
    }
    Game(const Game &) = delete;
    Game &operator=(const Game &) = delete;
    ~Game() { carc_game_free(game_); }

    Game clone() const {
        CarcGame *copy = nullptr;
        check(carc_game_clone(game_, &copy));
        return Game(copy);
    }

    bool over() const {
        uint8_t terminal = 0;
        check(carc_game_is_terminal(game_, &terminal));
        return terminal != 0;
    }

    uint32_t to_play() const {
        uint32_t player = 0;
        check(carc_game_to_play(game_, &player));
        return player;
    }

    uint64_t state_hash() const {
        uint64_t hash = 0;
        check(carc_game_state_hash(game_, &hash));
        return hash;
    }

    // The legal actions, written into `out` (its capacity is kept between calls).
    void legal_actions(std::vector<CarcAction> &out) const {
        uint32_t needed = 0;
        out.resize(out.capacity() > 0 ? out.capacity() : 256);
        CarcStatus status = carc_game_legal_actions(game_, out.data(), uint32_t(out.size()), &needed);
        if (status == CARC_STATUS_BUFFER_TOO_SMALL) {
            out.resize(needed);
            status = carc_game_legal_actions(game_, out.data(), uint32_t(out.size()), &needed);
        }
        checked(status);
        out.resize(needed);
    }

    void apply(const CarcAction &action) { checked(carc_game_apply(game_, &action)); }

    std::vector<int32_t> scores() const {
        uint32_t needed = 0;
        checked(carc_game_scores(game_, nullptr, 0, &needed));
        std::vector<int32_t> out(needed);
        checked(carc_game_scores(game_, out.data(), needed, &needed));
        return out;
    }

  private:
    explicit Game(CarcGame *game) : game_(game) {}

    // Like check(), with the message kept on the handle.
    void checked(CarcStatus status) const {
        if (status == CARC_STATUS_OK)
            return;
        uint32_t needed = 0;
        carc_game_last_error(game_, nullptr, 0, &needed);
        std::string text(needed, '\0');
        if (needed > 0 && carc_game_last_error(game_, &text[0], needed, &needed) == CARC_STATUS_OK)
            text.resize(needed - 1);
        throw Error(status, std::string(carc_status_message(status)) + ": " + text);
    }

    CarcGame *game_ = nullptr;
};

}  // namespace carc

int main() {
    try {
        // The header and the library loaded at run time must agree on the ABI.
        if (carc_abi_version() != CARC_ABI_VERSION) {
            std::fprintf(stderr, "library ABI %u, header ABI %u\n", unsigned(carc_abi_version()),
                         unsigned(CARC_ABI_VERSION));
            return 1;
        }
        std::printf("carcassonne %s (ABI %u)\n", carc_version(), unsigned(carc_abi_version()));

        carc::Game game(R"({"players": 3, "sets": ["base", "princess-and-dragon"], "seed": 11})");
        std::vector<std::mt19937> seats;
        for (uint32_t seat = 0; seat < 3; ++seat)
            seats.emplace_back(100 + seat);
        std::vector<CarcAction> actions;
        unsigned decisions = 0;
        while (!game.over()) {
            game.legal_actions(actions);
            std::mt19937 &rng = seats.at(game.to_play());
            game.apply(actions[rng() % actions.size()]);
            ++decisions;
        }

        // A copy is the same game.
        carc::Game copy = game.clone();
        if (copy.state_hash() != game.state_hash() || copy.scores() != game.scores()) {
            std::fprintf(stderr, "the clone differs from the game\n");
            return 1;
        }

        std::printf("%u decisions\n", decisions);
        std::vector<int32_t> scores = game.scores();
        for (size_t p = 0; p < scores.size(); ++p)
            std::printf("player %zu: %d points\n", p, int(scores[p]));

        // A refused call throws with the detailed message.
        try {
            carc::Game bad(R"({"players": 9, "sets": ["base"]})");
            std::fprintf(stderr, "a 9-player game was accepted\n");
            return 1;
        } catch (const carc::Error &e) {
            if (e.status() != CARC_STATUS_INVALID_CONFIG)
                throw;
            std::printf("refused: %s\n", e.what());
        }
        return 0;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
}
