"""How often legal moves fall outside the observation window, per set selection and
player count — the data behind the default window side (``docs/observations.md``).

For each configuration, games are played by built-in players; at every decision the
legal moves that need a square outside a ``W × W`` window are counted for several ``W``
(the trajectory does not depend on ``W``). Prints a Markdown table: the share of
decisions with at least one legal move outside, the share of decisions where nothing
at all could be offered, and the share of games with any such decision.

Run: ``python python/tools/measure_window.py [--games 50] [--player random]``.
"""

from __future__ import annotations

import argparse
from typing import Any, Dict, List

import carcassonne

WINDOWS = [16, 24, 32, 40, 48]
FIVE = ["base", "river1", "river2", "princess-and-dragon", "abbey-and-mayor"]
NINE = FIVE + ["count", "king-and-robber", "cult", "bridges-castles-and-bazaars"]
CONFIGS: List[Dict[str, Any]] = [
    dict(players=2, sets=["base"]),
    dict(players=4, sets=["base"]),
    dict(players=6, sets=["base"]),
    dict(players=2, sets=["base", "river1"]),
    dict(players=3, sets=["base", "river1", "river2"]),
    dict(players=3, sets=["base", "princess-and-dragon"]),
    dict(players=2, sets=["base", "abbey-and-mayor"]),
    dict(players=2, sets=FIVE),
    dict(players=6, sets=FIVE),
    dict(players=4, sets=["base", "count", "king-and-robber", "cult"]),
    dict(players=4, sets=["base", "bridges-castles-and-bazaars"]),
    dict(players=2, sets=NINE),
    dict(players=6, sets=NINE),
]
LABELS = {tuple(FIVE): "the first five", tuple(NINE): "all nine"}


def measure(config: Dict[str, Any], games: int, player: str) -> Dict[int, List[float]]:
    any_outside = {w: 0 for w in WINDOWS}
    none_offered = {w: 0 for w in WINDOWS}
    games_hit = {w: 0 for w in WINDOWS}
    decisions = 0
    for g in range(games):
        views = {w: carcassonne.Game(seed=g, window=w, **config) for w in WINDOWS}
        hit = {w: False for w in WINDOWS}
        lead = views[WINDOWS[0]]
        step = 0
        while not lead.is_terminal:
            decisions += 1
            for w, game in views.items():
                legal, offered, outside = game.mask_info()
                if outside:
                    any_outside[w] += 1
                    hit[w] = True
                if offered == 0:
                    none_offered[w] += 1
            action = lead.builtin_action(player, seed=g * 100_003 + step)
            for game in views.values():
                game.apply(action)
            step += 1
        for w in WINDOWS:
            games_hit[w] += int(hit[w])
    return {
        w: [100.0 * any_outside[w] / decisions, 100.0 * none_offered[w] / decisions, 100.0 * games_hit[w] / games]
        for w in WINDOWS
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--player", default="random", choices=["random", "greedy"])
    args = parser.parse_args()
    head = " | ".join(f"W={w}" for w in WINDOWS)
    print(f"Built-in `{args.player}` players, {args.games} games per row (seeds 0..{args.games - 1}).")
    print("Each cell: % decisions with a legal move outside / % decisions with nothing offered / % games affected.\n")
    print(f"| sets | players | {head} |")
    print("|---|---|" + "---|" * len(WINDOWS))
    for config in CONFIGS:
        result = measure(config, args.games, args.player)
        sets = LABELS.get(tuple(config["sets"]), "+".join(config["sets"]))
        cells = " | ".join(f"{a:.2f} / {n:.2f} / {g:.0f}" for a, n, g in (result[w] for w in WINDOWS))
        print(f"| {sets} | {config['players']} | {cells} |")


if __name__ == "__main__":
    main()
