"""Writes examples/analysis.ipynb: builds its cells, runs them in a Jupyter kernel and
stores the notebook with its outputs (tables, SVG boards, the score histogram), so that
it shows everything when browsed. Run by ``make notebook``.

Usage: python examples/make_notebook.py [--check]
  --check  run the notebook and compare its code with the stored one (no write)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

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
board of one game in the middle and at its end. It needs the `carcassonne` package with
its `notebook` extra (`pip install "./python[notebook]"`: matplotlib and a Jupyter
kernel); `make notebook` runs it again and stores it with its outputs.""",
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


def run(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    client = nbclient.NotebookClient(
        nb,
        timeout=600,
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
