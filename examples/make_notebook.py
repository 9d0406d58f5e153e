"""Writes examples/analysis.ipynb: builds its cells, runs them in a Jupyter kernel and
stores the notebook with its outputs (tables, SVG boards, the score histogram, the
dataset section's tables and plots), so that it shows everything when browsed. Run by
``make notebook``; the dataset section plays its 10,000 games into
examples/analysis-dataset the first time (several minutes) and reads them after.

Usage: python examples/make_notebook.py [--check]
  --check  run the notebook and compare its code with the stored one (no write)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional

import nbclient
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent
NOTEBOOK = HERE / "analysis.ipynb"

CELLS = [
    (
        "md",
        """# Games between built-in players

This notebook plays Carcassonne games between the engine's built-in players (`random`
and `greedy`), compares them in a win-rate table and a score histogram, and draws the
board of one game in the middle and at its end, then reads ten thousand games as tables
of a dataset. It needs the `carcassonne` package with its `notebook` extra (`pip install
"./python[notebook]"`: matplotlib, a Jupyter kernel, polars and pyarrow); `make notebook`
runs it again and stores it with its outputs.""",
    ),
    (
        "code",
        """import numpy as np
import carcassonne
from IPython.display import Image, Markdown, SVG, display

print("carcassonne", carcassonne.__version__)""",
    ),
    ("md", "## Win rates\n\n200 two-player base games per pairing, played natively (`play_games`); seat 0 starts."),
    (
        "code",
        """GAMES = 200
pairings = [("greedy", "random"), ("random", "greedy"), ("greedy", "greedy"), ("random", "random")]
results = {pair: carcassonne.play_games(GAMES, list(pair), seed=1000 * i) for i, pair in enumerate(pairings)}

rows = ["| seat 0 | seat 1 | seat 0 wins | ties | seat 1 wins | mean score 0 | mean score 1 |",
        "|---|---|---|---|---|---|---|"]
for (a, b), s in results.items():
    wins0, ties, wins1 = np.mean(s[:, 0] > s[:, 1]), np.mean(s[:, 0] == s[:, 1]), np.mean(s[:, 0] < s[:, 1])
    rows.append(f"| {a} | {b} | {wins0:.0%} | {ties:.0%} | {wins1:.0%} | {s[:, 0].mean():.1f} | {s[:, 1].mean():.1f} |")
display(Markdown("\\n".join(rows)))

s = results[("greedy", "random")]
print(f"greedy wins {np.mean(s[:, 0] > s[:, 1]):.0%} of its games against random as seat 0")""",
    ),
    ("md", "## Score distribution\n\nFinal scores of the greedy and the random player in their 200 games (greedy as seat 0)."),
    (
        "code",
        """import io

greedy, rand = s[:, 0], s[:, 1]
bins = np.arange(0, max(int(s.max()), 1) + 10, 10)
try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    plt = None

if plt is not None:
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.hist([greedy, rand], bins=bins, label=["greedy", "random"])
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title("200 two-player base games")
    ax.legend()
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=80, bbox_inches="tight")
    plt.close(fig)
    display(Image(data=png.getvalue()))
else:
    # A text histogram when matplotlib is not installed.
    for name, scores in (("greedy", greedy), ("random", rand)):
        counts, edges = np.histogram(scores, bins=bins)
        print(name)
        for c, lo in zip(counts, edges):
            print(f"  {int(lo):4d}-{int(lo) + 9:<4d} {'#' * int(c)}")""",
    ),
    (
        "md",
        """## One game, decision by decision

Three greedy players with The Princess & the Dragon, through the Python API:
`legal_actions()` lists readable actions, and a `Game` draws itself as SVG (seat
colours, a legend, the winner marked; a finished game shows its figures as they stood
before final scoring).""",
    ),
    (
        "code",
        """game = carcassonne.Game(players=3, sets=["base", "princess-and-dragon"], seed=7)
players = [carcassonne.BuiltinPlayer("greedy", seed=s) for s in range(3)]
print(game.legal_actions()[:4])
middle = None
while not game.is_terminal:
    game.apply(players[game.to_play](game))
    if middle is None and game.tiles_left <= 40:
        middle = game.clone()
print("board with", middle.tiles_left, "tiles left to draw, scores", middle.scores)
display(SVG(middle.render_svg()))""",
    ),
    ("code", """print("final scores", game.scores)\ngame"""),
    ("code", "print(game.render_text())"),
    (
        "md",
        """## Ten thousand games as tables

A dataset keeps games as Parquet tables (`docs/dataset.md`): one row per game, per turn,
per score event. `carcassonne.match(..., out=DIR)` writes the games of a match into one;
a second run finds them there and plays nothing again. Four built-in players meet in
four-player games of three setups; polars reads the tables (DuckDB or pandas would do
the same). `CARC_NOTEBOOK_GAMES` sets how many games (10,000 here; the tests use fewer).""",
    ),
    (
        "code",
        """import os
from pathlib import Path

import carcassonne.data
import polars as pl

GAMES = int(os.environ.get("CARC_NOTEBOOK_GAMES", "10000"))
DATASET = Path(os.environ.get("CARC_NOTEBOOK_DATASET", "analysis-dataset"))
BOTS = ["heuristic", "mcts:20", "greedy", "random"]
ROYAL_GIFT = ["base", "river1", "river2", "princess-and-dragon", "abbey-and-mayor", "count",
              "king-and-robber", "cult", "bridges-castles-and-bazaars"]
SETUPS = {"base": ["base"], "base + princess & dragon": ["base", "princess-and-dragon"], "royal gift": ROYAL_GIFT}
for i, sets in enumerate(SETUPS.values()):
    games_here = GAMES // len(SETUPS) + (i < GAMES % len(SETUPS))
    carcassonne.match(BOTS, games_here, players=4, sets=sets, seed=100_000 * i, threads=2, out=DATASET)

ds = carcassonne.data.open(DATASET)
setup_of = {tuple(sets): name for name, sets in SETUPS.items()}
games = pl.from_arrow(ds.games).with_columns(
    pl.col("sets").map_elements(lambda s: setup_of.get(tuple(s), "other"), return_dtype=pl.String).alias("setup"))
turns, events = pl.from_arrow(ds.turns), pl.from_arrow(ds.events)
print(f"{games.height} games, {turns.height} turns, {events.height} events, "
      f"{sum(f.stat().st_size for f in DATASET.rglob('*.parquet')) / 1e6:.1f} MB on disk")""",
    ),
    ("md", "### Where the points come from\n\nShare of all points by what scored them, per setup (final scoring included)."),
    (
        "code",
        """points = (events.filter(pl.col("kind") != "returned")
          .join(games.select("game_id", "setup"), on="game_id")
          .group_by("setup", "kind").agg(pl.col("points").sum())
          .with_columns((pl.col("points") / pl.col("points").sum().over("setup")).alias("share")))
table = points.pivot(on="setup", index="kind", values="share").fill_null(0.0).sort(list(SETUPS)[-1], descending=True)
rows = ["| scored by | " + " | ".join(SETUPS) + " |", "|---" * (len(SETUPS) + 1) + "|"]
for r in table.iter_rows(named=True):
    rows.append(f"| {r['kind']} | " + " | ".join(f"{r.get(s, 0.0):.1%}" for s in SETUPS) + " |")
display(Markdown("\\n".join(rows)))""",
    ),
    ("md", "### Win rate by player and by seat\n\nA win shared by k players counts 1/k; seats are rotated, so every player sits at every seat."),
    (
        "code",
        """seats = (games.select("game_id", "setup", "seats", "ranks")
         .with_columns(pl.int_ranges(0, pl.col("seats").list.len()).alias("seat"))
         .explode("seats", "ranks", "seat").rename({"seats": "player", "ranks": "rank"}))
seats = seats.with_columns(
    (pl.col("rank") == 1).cast(pl.Float64).alias("win"),
    (pl.col("rank") == 1).cast(pl.Int32).sum().over("game_id").alias("winners"),
).with_columns((pl.col("win") / pl.col("winners")).alias("win"))
by_seat = seats.group_by("player", "seat").agg(pl.col("win").mean()).sort("seat")
by_setup = seats.group_by("player", "setup").agg(pl.col("win").mean())
overall = seats.group_by("player").agg(pl.col("win").mean(), pl.len().alias("games")).sort("win", descending=True)
n_seats = int(seats["seat"].max()) + 1
rows = ["| player | games | win rate | " + " | ".join(f"seat {s}" for s in range(n_seats)) + " | "
        + " | ".join(SETUPS) + " |", "|---" * (3 + n_seats + len(SETUPS)) + "|"]
for r in overall.iter_rows(named=True):
    at = {s: w for s, w in by_seat.filter(pl.col("player") == r["player"]).select("seat", "win").iter_rows()}
    per = {s: w for s, w in by_setup.filter(pl.col("player") == r["player"]).select("setup", "win").iter_rows()}
    rows.append(f"| {r['player']} | {r['games']} | {r['win']:.1%} | "
                + " | ".join(f"{at.get(s, 0.0):.1%}" for s in range(n_seats)) + " | "
                + " | ".join(f"{per.get(s, 0.0):.1%}" for s in SETUPS) + " |")
display(Markdown("\\n".join(rows)))""",
    ),
    ("md", "### Score curves and game lengths\n\nEach player's mean score after each turn of the base games, and how many turns the games of each setup last."),
    (
        "code",
        """curves = (turns.join(games.filter(pl.col("setup") == "base").select("game_id", "seats"), on="game_id")
          .with_columns(pl.int_ranges(0, pl.col("seats").list.len()).alias("seat"))
          .explode("scores", "seats", "seat")
          .group_by("seats", "turn").agg(pl.col("scores").mean()).sort("turn"))
lengths = games.select("setup", "turns")
if plt is not None:
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.5))
    for player in BOTS:
        c = curves.filter(pl.col("seats") == player)
        left.plot(c["turn"].to_numpy(), c["scores"].to_numpy(), label=player)
    left.set_xlabel("turn")
    left.set_ylabel("mean score")
    left.set_title("base game, four players")
    left.legend()
    right.hist([lengths.filter(pl.col("setup") == s)["turns"].to_numpy() for s in SETUPS], bins=30, label=list(SETUPS))
    right.set_xlabel("turns")
    right.set_ylabel("games")
    right.set_title("game length")
    right.legend()
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=80, bbox_inches="tight")
    plt.close(fig)
    display(Image(data=png.getvalue()))
print(lengths.group_by("setup").agg(pl.col("turns").mean().round(1).alias("mean turns"),
                                    pl.col("turns").min().alias("min"), pl.col("turns").max().alias("max")).sort("setup"))""",
    ),
    ("md", "### The most lopsided game\n\nThe widest gap between the winner and the runner-up, replayed from its record and drawn."),
    (
        "code",
        """gaps = games.with_columns(
    (pl.col("final_scores").list.max() - pl.col("final_scores").list.sort(descending=True).list.get(1)).alias("gap"))
worst = gaps.sort("gap", descending=True).row(0, named=True)
record = pl.from_arrow(ds.records).filter(pl.col("game_id") == worst["game_id"])["record"][0]
lopsided = carcassonne.Game.from_record(record)
print(f"lopsided game {worst['game_id']} ({worst['setup']}): seats {worst['seats']}, "
      f"final scores {worst['final_scores']}, gap {worst['gap']}")
display(SVG(lopsided.render_svg()))""",
    ),
    ("md", "## What a learner sees\n\nObservations are numpy arrays; actions are flat ids (see `docs/observations.md`)."),
    (
        "code",
        """fresh = carcassonne.Game(players=2, seed=1)
obs = fresh.observation()
print({k: (v.shape, v.dtype.name) for k, v in obs.items()})
first = int(np.flatnonzero(obs["action_mask"])[0])
print(first, carcassonne.describe_action_id(first), fresh.flat_to_action(first))""",
    ),
]


def build() -> nbformat.NotebookNode:
    nb = new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    for i, (kind, source) in enumerate(CELLS):
        cell = new_markdown_cell(source) if kind == "md" else new_code_cell(source)
        cell["id"] = f"cell-{i}"
        nb.cells.append(cell)
    return nb


def run(nb: nbformat.NotebookNode, timeout: Optional[int] = None) -> nbformat.NotebookNode:
    """Runs every cell; ``timeout`` bounds each cell in seconds (none by default: the
    first run plays the dataset section's 10,000 games, which takes long on a small
    machine; a rerun finds them written and plays none)."""
    client = nbclient.NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(HERE)}},
    )
    client.execute()
    return nb


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    nb = run(build())
    if args.check:
        stored = nbformat.read(str(NOTEBOOK), as_version=4)
        if [c.source for c in stored.cells] != [c.source for c in nb.cells]:
            print(f"{NOTEBOOK} is out of date: run `make notebook`", file=sys.stderr)
            return 1
        return 0
    nbformat.validate(nb)
    nbformat.write(nb, str(NOTEBOOK))
    print(f"wrote {NOTEBOOK}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
