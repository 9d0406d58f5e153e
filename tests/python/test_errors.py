"""Misuse raises the package's exceptions (ValueError subclasses for bad input) and
never a Rust panic (``pyo3_runtime.PanicException``)."""

from __future__ import annotations

from typing import Any, Callable, List, Tuple, Type

import numpy as np
import pytest

import carcassonne
from carcassonne import (
    CarcassonneError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidConfigError,
    InvalidRecordError,
)


def test_exception_hierarchy() -> None:
    for cls in (IllegalActionError, InvalidConfigError, InvalidRecordError, InvalidArgumentError):
        assert issubclass(cls, ValueError)
        assert issubclass(cls, CarcassonneError)


def _finished() -> carcassonne.Game:
    g = carcassonne.Game(players=2, seed=3)
    while not g.is_terminal:
        g.apply(g.legal_actions()[0])
    return g


MISUSE: List[Tuple[str, Callable[[], Any], Type[BaseException], str]] = [
    ("players", lambda: carcassonne.Game(players=9), InvalidConfigError, "players"),
    ("players type", lambda: carcassonne.Game(players="two"), InvalidConfigError, "players"),
    ("unknown set", lambda: carcassonne.Game(sets=["base", "inns"]), InvalidConfigError, "sets[1]"),
    ("sets as str", lambda: carcassonne.Game(sets="base"), InvalidConfigError, "sets"),
    ("no base", lambda: carcassonne.Game(sets=["river1"]), InvalidConfigError, "sets"),
    ("rule value", lambda: carcassonne.Game(rules={"fairy": "anywhere"}), InvalidConfigError, "rules.fairy"),
    ("rule name", lambda: carcassonne.Game(rules={"gravity": True}), InvalidConfigError, "rules"),
    ("figures", lambda: carcassonne.Game(figures={"follower": -1}), InvalidConfigError, "figures.follower"),
    ("figure kind", lambda: carcassonne.Game(figures={"dragon": 1}), InvalidConfigError, "figures.dragon"),
    ("abbot count", lambda: carcassonne.Game(figures={"abbot": 2}), InvalidConfigError, "figures.abbot"),
    ("seed", lambda: carcassonne.Game(seed=-1), InvalidConfigError, "seed"),
    ("huge seed", lambda: carcassonne.Game(seed=2**70), InvalidConfigError, "seed"),
    ("seed type", lambda: carcassonne.Game(seed=object()), InvalidConfigError, "seed"),
    ("edition", lambda: carcassonne.Game(edition="C9"), InvalidConfigError, "edition"),
    ("window", lambda: carcassonne.Game(window=0), InvalidConfigError, "window"),
    ("window big", lambda: carcassonne.Game(window=10**6), InvalidConfigError, "window"),
    ("chance", lambda: carcassonne.Game(chance="loaded"), InvalidConfigError, "chance"),
    ("start tile", lambda: carcassonne.Game(start={"tile": "NOPE"}), InvalidConfigError, "start.tile"),
    ("record", lambda: carcassonne.Game.from_record("not json"), InvalidRecordError, ""),
    ("record type", lambda: carcassonne.Game.from_record("42"), InvalidRecordError, ""),
    ("apply junk", lambda: carcassonne.Game().apply(42), IllegalActionError, ""),  # type: ignore[arg-type]
    ("apply empty", lambda: carcassonne.Game().apply(()), IllegalActionError, "empty"),
    ("apply type", lambda: carcassonne.Game().apply(("teleport", 0, 0)), IllegalActionError, "teleport"),
    ("apply arity", lambda: carcassonne.Game().apply(("place_tile", 1)), IllegalActionError, "fields"),
    ("huge x", lambda: carcassonne.Game().apply(carcassonne.PlaceTile(10**30, 0, 0)), IllegalActionError, "x"),
    ("bad rot", lambda: carcassonne.Game().apply(carcassonne.PlaceTile(1, 0, 7)), IllegalActionError, "rot"),
    ("not legal", lambda: carcassonne.Game().apply(carcassonne.PlaceTile(5, 5, 0)), IllegalActionError, "not legal"),
    ("feature id", lambda: carcassonne.Game().apply(carcassonne.Deploy("follower", 0, 0, "z9")), IllegalActionError, "z9"),
    ("figure", lambda: carcassonne.Game().apply(carcassonne.Deploy("dragon", 0, 0, 0)), IllegalActionError, "dragon"),
    ("corner", lambda: carcassonne.Game().apply(carcassonne.DeployBarn(0, 0, "N")), IllegalActionError, "corner"),
    # An unknown name lists the names the record format allows (corners AM6, axes BR1,
    # quarters CC2, steps CC3/CC4/CC6, choices BZ3).
    ("corner names", lambda: carcassonne.Game().apply(carcassonne.DeployBarn(0, 0, "N")), IllegalActionError, "(NW, NE, SE, SW)"),
    ("axis names", lambda: carcassonne.Game().apply(carcassonne.PlaceBridge(0, 0, "NE")), IllegalActionError, 'unknown axis "NE" (NS, WE)'),
    ("quarter names", lambda: carcassonne.Game().apply(carcassonne.MoveCount("tower")), IllegalActionError, "(castle, blacksmith, cathedral, market)"),
    ("step names", lambda: carcassonne.Game().apply(carcassonne.QuarterPass("later")), IllegalActionError, "(before-scoring, deploy, final, count)"),
    ("choice names", lambda: carcassonne.Game().apply(carcassonne.BazaarBuyOrSell("keep")), IllegalActionError, "(buy, sell)"),
    ("draw tile", lambda: carcassonne.Game(chance="explicit").apply(carcassonne.Draw("BASE-ZZ")), IllegalActionError, "BASE-ZZ"),
    ("over", lambda: _finished().apply(carcassonne.Pass()), IllegalActionError, "over"),
    ("flat over", lambda: _finished().step_flat(0), IllegalActionError, "over"),
    ("flat negative", lambda: carcassonne.Game().step_flat(-1), IllegalActionError, "-1"),
    ("flat huge", lambda: carcassonne.Game().step_flat(2**80), InvalidArgumentError, "64 bits"),
    ("flat type", lambda: carcassonne.Game().step_flat("north"), InvalidArgumentError, "str"),
    ("seat huge", lambda: carcassonne.Game().observation(player=2**70), InvalidArgumentError, "64 bits"),
    ("flat chance", lambda: carcassonne.Game(chance="explicit").step_flat(0), IllegalActionError, "chance"),
    ("seat", lambda: carcassonne.Game().observation(player=5), InvalidArgumentError, "player 5"),
    ("seat negative", lambda: carcassonne.Game().supply(-1, "follower"), InvalidArgumentError, "player"),
    ("figure name", lambda: carcassonne.Game().supply(0, "knight"), InvalidArgumentError, "knight"),
    ("feature_id", lambda: carcassonne.Game().feature_id(9, 9, 0), InvalidArgumentError, "no tile"),
    ("feature_id index", lambda: carcassonne.Game().feature_id(0, 0, 99), InvalidArgumentError, "99"),
    ("board dtype", lambda: carcassonne._core.Game().observation(board=np.zeros((87, 32, 32))), InvalidArgumentError, "uint8"),
    ("board shape", lambda: carcassonne._core.Game().observation(board=np.zeros((3,), np.uint8)), InvalidArgumentError, "shape"),
    ("builtin kind", lambda: carcassonne.Game().builtin_action("perfect"), InvalidArgumentError, "perfect"),
    ("builtin over", lambda: _finished().builtin_action("random"), CarcassonneError, "over"),
    ("rotate", lambda: carcassonne.rotate_board(np.zeros((3, 3, 3), np.uint8), 1), InvalidArgumentError, "shape"),
    ("id", lambda: carcassonne.describe_action_id(10**7), InvalidArgumentError, "ids are"),
    ("rewards mode", lambda: carcassonne._core.step_rewards("money", [0], [1], False), InvalidConfigError, "money"),
    ("rewards sizes", lambda: carcassonne._core.step_rewards("score", [0], [1, 2], False), InvalidArgumentError, "before"),
    ("play_games", lambda: carcassonne.play_games(1, ["random", "oracle"]), InvalidConfigError, "oracle"),
    ("play_games count", lambda: carcassonne.play_games(-1, ["random", "random"]), InvalidConfigError, "num_games"),
    ("vector window", lambda: carcassonne.VectorEnv(1, window=1), InvalidConfigError, "window"),
    ("vector reward", lambda: carcassonne.VectorEnv(1, reward="money"), InvalidConfigError, "reward"),
    ("vector autoreset", lambda: carcassonne.VectorEnv(1, autoreset="sometimes"), InvalidConfigError, "autoreset"),
    ("vector game index", lambda: carcassonne.VectorEnv(1).game(3), InvalidArgumentError, "index 3"),
]


@pytest.mark.parametrize("case", MISUSE, ids=[c[0] for c in MISUSE])
def test_misuse_raises_a_clear_exception(case: Tuple[str, Callable[[], Any], Type[BaseException], str]) -> None:
    _, call, expected, text = case
    with pytest.raises(expected) as info:
        call()
    assert "PanicException" not in type(info.value).__name__
    assert text in str(info.value)


def test_random_junk_never_panics() -> None:
    """Random tuples thrown at every entry point raise ordinary exceptions only."""
    r = np.random.default_rng(0)
    kinds = ["place_tile", "place_abbey", "deploy", "deploy_barn", "move_fairy", "princess",
             "return_abbot", "pass", "move_dragon", "move_wagon", "draw", "x"]
    values: List[Any] = [0, 1, -1, 2**31, -(2**31) - 1, 2**64, None, "c1", "NW", "follower",
                         "BASE-A", 1.5, [], {}, "", 255, 256]
    game = carcassonne.Game(players=3, sets=["base", "princess-and-dragon", "abbey-and-mayor"], seed=1)
    for _ in range(3000):
        n = int(r.integers(0, 6))
        action = (kinds[int(r.integers(len(kinds)))],) + tuple(
            values[int(r.integers(len(values)))] for _ in range(n)
        )
        for call in (game._g.apply, game._g.is_legal, game._g.action_to_flat, game._g.action_to_flat_path):
            try:
                call(action)
            except BaseException as e:  # noqa: BLE001 - the point is what is raised
                assert isinstance(e, CarcassonneError), repr(e)
        if r.random() < 0.2 and not game.is_terminal:
            game.apply(game.legal_actions()[0])
        for i in (int(r.integers(-5, 6000)), -(2**40), 2**40):
            try:
                game._g.decode_flat(i)
                game._g.flat_to_action(i)
            except BaseException as e:  # noqa: BLE001
                assert isinstance(e, CarcassonneError), repr(e)


def test_failed_calls_leave_the_game_unchanged() -> None:
    game = carcassonne.Game(players=2, seed=2)
    h = game.state_hash()
    for bad in (carcassonne.PlaceTile(9, 9, 0), ("deploy", "follower", 0, 0, 0), ("pass",)):
        with pytest.raises(IllegalActionError):
            game.apply(bad)
        assert game.state_hash() == h
    mask = game.legal_mask()
    with pytest.raises(IllegalActionError):
        game.step_flat(int(np.flatnonzero(mask == 0)[0]))
    assert game.state_hash() == h
