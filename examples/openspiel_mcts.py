"""OpenSpiel's MCTS bot plays Carcassonne through the registered python game.

``import carcassonne.openspiel`` registers ``python_carcassonne`` (tile draws are chance
nodes); this script plays ``--games`` 2-player base games between an MCTS bot (random
rollouts, ``--simulations`` per move) and a uniform random bot, seats alternating,
and prints each result and the MCTS bot's score (wins count 1, ties 1/2).

Run: ``python examples/openspiel_mcts.py --games 2 --simulations 30``
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.bots import uniform_random

import carcassonne.openspiel  # noqa: F401  (registers python_carcassonne)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    game = pyspiel.load_game("python_carcassonne(players=2,sets=base)")
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    points = 0.0
    for g in range(args.games):
        mcts_seat = g % 2
        bots = [None, None]
        bots[mcts_seat] = mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.simulations,
                                       evaluator=evaluator, random_state=rng)
        bots[1 - mcts_seat] = uniform_random.UniformRandomBot(1 - mcts_seat, rng)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        returns = state.returns()
        scores = state.game_.scores
        result = 1.0 if returns[mcts_seat] > 0 else 0.5 if returns[mcts_seat] == 0 else 0.0
        points += result
        print(f"game {g + 1}: MCTS in seat {mcts_seat}, scores {scores}, MCTS result {result}")
    print(f"MCTS ({args.simulations} simulations) against random: {points}/{args.games}")


if __name__ == "__main__":
    main()
