"""Hostile input: no crash, no silent acceptance, bounded memory.

Cases that crashed or aborted the interpreter run in a child process, so that a
regression fails one test instead of ending the run. ``CARC_PY_FUZZ_CASES`` (default
1000) sets the number of cases of each random fuzz test.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
import threading
import time
from typing import Any, Callable, Dict, List

import numpy as np
import pytest

import carcassonne
from carcassonne import (
    CarcassonneError,
    ConcurrentUseError,
    Game,
    InvalidConfigError,
    InvalidRecordError,
    VectorEnv,
)
from carcassonne import _core

FUZZ_CASES = int(os.environ.get("CARC_PY_FUZZ_CASES", "1000"))


def run_child(code: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Runs ``code`` in a fresh interpreter; returns the finished process."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


# ----- configurations built from keywords -------------------------------------------------


def test_self_containing_and_deep_values_are_refused_in_a_child() -> None:
    code = """
        import carcassonne
        from carcassonne import InvalidConfigError
        l = []
        l.append(l)
        d = {}
        d["fairy"] = d
        deep = []
        for _ in range(100_000):
            deep = [deep]
        for name, kwargs in [("list", dict(sets=l)), ("dict", dict(rules=d)), ("deep", dict(sets=deep))]:
            try:
                carcassonne.Game(**kwargs)
            except InvalidConfigError as e:
                print(name, str(e)[:200])
            else:
                print(name, "accepted")
    """
    child = run_child(code)
    assert child.returncode == 0, child.stderr[-2000:]
    lines = child.stdout.splitlines()
    assert len(lines) == 3, child.stdout
    assert lines[0].startswith("list sets[0]: the value contains itself"), lines[0]
    assert lines[1].startswith("dict rules.fairy: the value contains itself"), lines[1]
    assert "nested deeper than 32 levels" in lines[2], lines[2]


def test_nesting_limit_and_short_messages() -> None:
    v: Any = "base"
    for _ in range(32):
        v = [v]
    # 32 levels are read (and refused by the schema), 33 are not read at all.
    with pytest.raises(InvalidConfigError) as ok_depth:
        Game(sets=v)
    assert "nested deeper" not in str(ok_depth.value)
    with pytest.raises(InvalidConfigError, match="nested deeper than 32 levels"):
        Game(sets=[v])
    long = "x" * 10_000_000
    for kwargs in (
        dict(sets=["base", long]),
        dict(rules={long: 1}),
        dict(rules={"fairy": long}),
        dict(start={"tile": long}),
        dict(edition=long),
    ):
        with pytest.raises(InvalidConfigError) as e:
            Game(**kwargs)  # type: ignore[arg-type]
        assert len(str(e.value)) < 400, (list(kwargs), len(str(e.value)))
    with pytest.raises(CarcassonneError) as big:
        Game(seed=10**100000)
    assert len(str(big.value)) < 200
    # Names that are no value of their kind are quoted cut short too.
    for call in (
        lambda: carcassonne.tile_geometry(long),
        lambda: carcassonne.tile_symbols(long),
        lambda: Game(sets=["base", "bridges-castles-and-bazaars"]).apply(("place_bridge", 0, 0, long)),
        lambda: Game(sets=["base", "bridges-castles-and-bazaars"]).apply(("bazaar_buy_or_sell", long)),
    ):
        with pytest.raises(CarcassonneError) as e:
            call()
        assert len(str(e.value)) < 400, len(str(e.value))
    with pytest.raises(InvalidConfigError, match="start.rot"):
        Game(start={"tile": "BASE-D", "rot": -1})


# ----- records ----------------------------------------------------------------------------


def _finished_record() -> Dict[str, Any]:
    g = Game(players=2, seed=3)
    while not g.is_terminal:
        g.apply(g.legal_actions()[0])
    record: Dict[str, Any] = json.loads(g.to_record())
    return record


def test_end_of_game_abbey_round_reloads_unfinished() -> None:
    """AM4: saved during the end-of-game abbey round, a game loads back unfinished."""
    checked = 0
    for seed in range(3):
        g = Game(players=3, sets=["base", "abbey-and-mayor"], seed=seed)
        while not (g.phase == "abbey" and g.tiles_left == 0) and not g.is_terminal:
            legal = g.legal_actions()
            passes = [a for a in legal if type(a).__name__ == "Pass"]
            g.apply(passes[0] if g.phase == "abbey" else legal[0])
        if g.is_terminal:
            continue
        checked += 1
        back = Game.from_record(g.to_record())
        assert not back.is_terminal
        assert back.phase == "abbey"
        assert back.to_play == g.to_play
        assert back.scores == g.scores
    assert checked >= 1


@pytest.mark.parametrize(
    "change, field",
    [
        (lambda r: r["final_scores"].__setitem__(0, r["final_scores"][0] + 2**32), "final_scores[0]"),
        (lambda r: r["turns"][0]["actions"][0].__setitem__("rot", -1), "turns[0].actions[0].rot"),
        (lambda r: r["turns"][0]["actions"][0].__setitem__("rot", -(2**63)), "turns[0].actions[0].rot"),
        (lambda r: r["turns"][0]["actions"][0].__setitem__("player", -7), "turns[0].actions[0].player"),
        (lambda r: r["turns"][0]["actions"][0].__setitem__("player", 1000), "turns[0].actions[0].player"),
        (lambda r: r["turns"][0].__setitem__("discarded", "yes"), "turns[0].discarded"),
        (lambda r: r.__setitem__("comment", 1), "comment"),
        (lambda r: r["setup"].__setitem__("playrs", 3), "setup.playrs"),
        (lambda r: r["turns"][0].__setitem__("note", 1), "turns[0].note"),
        (lambda r: r["turns"][0]["actions"][0].__setitem__("why", 1), "turns[0].actions[0].why"),
    ],
)
def test_bad_records_are_refused_naming_the_field(
    change: Callable[[Dict[str, Any]], None], field: str
) -> None:
    record = _finished_record()
    change(record)
    with pytest.raises(InvalidRecordError) as e:
        Game.from_record(json.dumps(record))
    assert f"{field}:" in str(e.value), str(e.value)


def test_duplicate_keys_empty_text_and_huge_records() -> None:
    text = json.dumps(_finished_record())
    with pytest.raises(InvalidRecordError, match="format: duplicate key"):
        Game.from_record('{"format":"chess",' + text[1:])
    with pytest.raises(InvalidRecordError):
        Game.from_record("")
    record = _finished_record()
    record["turns"][0]["draw"] = "X" * (1 << 20)
    with pytest.raises(InvalidRecordError) as e:
        Game.from_record(json.dumps(record))
    assert len(str(e.value)) < 300
    record["turns"][0]["draw"] = "X" * (50 << 20)
    start = time.perf_counter()
    with pytest.raises(InvalidRecordError, match="at most 4194304"):
        Game.from_record(json.dumps(record))
    assert time.perf_counter() - start < 5


# ----- Ctrl-C during long native calls ----------------------------------------------------


def test_ctrl_c_stops_play_games_of_a_fresh_process() -> None:
    code = """
        import os, signal, threading, time
        import carcassonne._core as core
        # Python's own Ctrl-C handler, even when the test runs where SIGINT is ignored
        # (a background job inherits that, and Python then installs no handler).
        signal.signal(signal.SIGINT, signal.default_int_handler)
        threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        start = time.perf_counter()
        try:
            core.play_games(1_000_000, ["random", "random"])
        except KeyboardInterrupt:
            print("interrupted after", round(time.perf_counter() - start, 2))
        except BaseException as e:
            print("raised", type(e).__name__, e)
        else:
            print("finished")
    """
    child = run_child(code)
    assert child.returncode == 0, child.stderr[-2000:]
    words = child.stdout.split()
    assert words[:2] == ["interrupted", "after"], child.stdout + child.stderr[-2000:]
    assert float(words[2]) < 2.0, child.stdout


def test_ctrl_c_stops_a_large_vector_reset_and_reset_recovers() -> None:
    code = """
        import os, signal, threading, time
        import numpy as np
        from carcassonne import VectorEnv, CarcassonneError
        signal.signal(signal.SIGINT, signal.default_int_handler)  # as above
        sets = ["base", "river1", "river2", "princess-and-dragon", "abbey-and-mayor"]
        env = VectorEnv(5000, players=6, sets=sets, opponents="greedy", learner_seat=5,
                        observations=False)
        start = time.perf_counter()
        env.reset(seed=0)
        whole = time.perf_counter() - start
        threading.Timer(whole / 5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        start = time.perf_counter()
        try:
            env.reset(seed=1)
            print("not interrupted")
        except KeyboardInterrupt:
            print("interrupted", round((time.perf_counter() - start) / whole, 2))
        obs = env.observation()
        try:
            env.step(np.zeros(5000, dtype=np.int64))
        except CarcassonneError as e:
            print("refused", "call reset()" in str(e))
        obs, _ = env.reset()
        env.step(np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]]))
        print("recovered")
    """
    child = run_child(code)
    assert child.returncode == 0, child.stderr[-2000:]
    lines = child.stdout.splitlines()
    assert lines[0].startswith("interrupted"), child.stdout
    # Stopped well before the reset would have ended (the signal came at a fifth of it).
    assert float(lines[0].split()[1]) < 0.7, child.stdout
    assert lines[1:] == ["refused True", "recovered"], child.stdout


def test_ctrl_c_stops_every_mcts_search_within_a_tenth_of_a_second() -> None:
    # The largest budgets accepted (iterations, and an hour on two threads): each call
    # would run for hours. Ctrl-C comes 0.3 s into the call; the time from the signal to
    # the KeyboardInterrupt is printed, and the game (or batch) is checked unchanged.
    code = """
        import os, signal, threading, time
        import numpy as np
        import carcassonne
        from carcassonne import BuiltinPlayer, Game, VectorEnv
        signal.signal(signal.SIGINT, signal.default_int_handler)  # as above

        def interrupted(call):
            sent = []
            def send():
                sent.append(time.perf_counter())
                os.kill(os.getpid(), signal.SIGINT)
            threading.Timer(0.3, send).start()
            try:
                call()
            except KeyboardInterrupt:
                return round(time.perf_counter() - sent[0], 3)
            return "not interrupted"

        for spec in ["mcts:100000000", "mcts:3600000ms:threads=2"]:
            game = Game(players=2, seed=3)
            before = game.to_record()
            print("builtin_action", interrupted(lambda: game.builtin_action(spec)),
                  game.to_record() == before)
            player = BuiltinPlayer(spec, seed=1)
            print("BuiltinPlayer", interrupted(lambda: player(game)), game.to_record() == before)
            print("match", interrupted(lambda: carcassonne.match([spec, "random"], games=2,
                                                                 threads=2)))
            env = VectorEnv(2, players=2, opponents=spec, learner_seat=1, observations=False)
            print("VectorEnv.reset", interrupted(lambda: env.reset(seed=0)))
            env = VectorEnv(2, players=2, observations=False)
            env.reset(seed=0)
            seeds = env.episode_seeds().copy()
            print("VectorEnv.builtin_actions", interrupted(lambda: env.builtin_actions(spec)),
                  bool((env.episode_seeds() == seeds).all()))
            obs, _ = env.reset(seed=0)
            env.step(np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]]))
    """
    child = run_child(code, timeout=300)
    assert child.returncode == 0, child.stderr[-2000:]
    lines = child.stdout.splitlines()
    assert len(lines) == 10, child.stdout + child.stderr[-2000:]
    for line in lines:
        name, latency, *unchanged = line.split()
        assert latency != "not", line
        # About 0.1 s on an idle machine; generous for a loaded one.
        assert float(latency) < 1.0, child.stdout
        assert unchanged in ([], ["True"]), line


# ----- VectorEnv: memory and threads ------------------------------------------------------


def test_a_batch_too_large_is_refused_before_allocating() -> None:
    code = """
        import carcassonne
        try:
            carcassonne.VectorEnv(2**20, observations=False)
        except carcassonne.InvalidConfigError as e:
            print(e)
    """
    child = run_child(code)
    assert child.returncode == 0, child.stderr[-2000:]
    assert child.stdout.startswith("num_envs: 1048576 games need about"), child.stdout


def test_one_vector_env_belongs_to_one_thread() -> None:
    env = VectorEnv(4, seed=1)
    env.reset()
    errors: List[BaseException] = []

    def other() -> None:
        try:
            env.step(np.zeros(4, dtype=np.int64))
        except BaseException as e:  # noqa: BLE001 - recorded for the assertion
            errors.append(e)

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert len(errors) == 1 and isinstance(errors[0], ConcurrentUseError), errors
    assert "its own VectorEnv" in str(errors[0])
    # The owner goes on undisturbed.
    obs, *_ = env.step(np.array([np.flatnonzero(m)[0] for m in env.action_mask]))
    assert obs["action_mask"].any(axis=1).all()


def test_concurrent_core_calls_are_refused_not_mixed() -> None:
    n = 20000
    core = _core.VectorEnv(n, players=4, opponents="greedy")
    info = carcassonne.encoder_info()
    mask = np.zeros((n, info["num_actions"]), dtype=np.int8)
    to_play = np.zeros(n, dtype=np.int32)
    core.reset(mask, to_play)
    outcomes: List[str] = []

    def long_reset() -> None:
        m = np.zeros_like(mask)
        core.reset(m, np.zeros_like(to_play))
        outcomes.append("done")

    t = threading.Thread(target=long_reset)
    t.start()
    time.sleep(0.05)
    refused = 0
    while t.is_alive():
        try:
            core.learner_seats()
        except ConcurrentUseError:
            refused += 1
        time.sleep(0.01)
    t.join()
    assert outcomes == ["done"]
    assert refused > 0


def test_separate_envs_on_separate_threads_work() -> None:
    results: Dict[int, int] = {}

    def play(i: int) -> None:
        env = VectorEnv(8, seed=i)
        obs, _ = env.reset()
        steps = 0
        for _ in range(50):
            ids = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
            obs, *_ = env.step(ids)
            steps += 1
        results[i] = steps

    threads = [threading.Thread(target=play, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {0: 50, 1: 50, 2: 50, 3: 50}


# ----- saved states that contradict themselves, and leniencies -----------------------------


def _batch_state(**kwargs: Any) -> Dict[str, Any]:
    env = _core.VectorEnv(2, players=2, **kwargs)
    mask = np.zeros((2, env.num_actions), dtype=np.int8)
    env.reset(mask, np.zeros(2, dtype=np.int32), seeds=0)
    state: Dict[str, Any] = json.loads(env.__reduce__()[1][0])
    return state


def test_unpickling_refuses_a_batch_that_contradicts_itself() -> None:
    fixed = _batch_state(opponents="random", learner_seat=0)
    free = _batch_state(opponents="random", learner_seat=None)
    six = json.loads(Game(players=6, seed=1).to_record())
    river = json.loads(Game(players=2, sets=["base", "river1"], seed=1).to_record())
    cases: List[Any] = [
        ("learner_seat", fixed, lambda s: s.update(learner_seat=9)),
        ("slots[0].record", fixed, lambda s: s["slots"][0].update(record=six)),
        ("slots[1].record", fixed, lambda s: s["slots"][1].update(record=river)),
        ("slots[0].learner", fixed, lambda s: s["slots"][0].update(learner=1)),
        # The game waits for the seat that is not the learner: opponents would have played.
        ("slots[1]: seat", free, lambda s: s["slots"][1].update(learner=1 - s["slots"][1]["learner"])),
        ("illegal_penalty", fixed, lambda s: s.update(illegal_action="penalize", illegal_penalty=1e39)),
        ("slots", fixed, lambda s: s.update(slots=[])),
        ("window", fixed, lambda s: s.update(window=1)),
    ]
    for field, base, change in cases:
        state = json.loads(json.dumps(base))
        change(state)
        with pytest.raises(InvalidRecordError, match=f"state.{re_escape(field)}"):
            _core._vector_env_from_state(json.dumps(state))
    # The unchanged states load and step.
    for base in (fixed, free):
        env = _core._vector_env_from_state(json.dumps(base))
        mask = np.zeros((2, env.num_actions), dtype=np.int8)
        env.reset(mask, np.zeros(2, dtype=np.int32))


def re_escape(text: str) -> str:
    import re

    return re.escape(text)


def test_fuzz_pickled_batches_load_or_are_refused() -> None:
    # Every field of a saved batch replaced by a hostile value: the batch is refused with
    # InvalidRecordError, or it loads and then resets and steps (never a PanicException).
    r = random.Random(4)
    bases = [_batch_state(opponents="greedy", learner_seat=1), _batch_state(learner_seat=None)]
    for case in range(max(1, FUZZ_CASES // 5)):
        state = json.loads(json.dumps(r.choice(bases)))
        node: Any = state
        if r.random() < 0.5:
            node = r.choice(state["slots"])
        key = r.choice(list(node))
        value = _hostile(r)
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            value = None
        node[key] = value
        try:
            env = _core._vector_env_from_state(json.dumps(state))
        except InvalidRecordError:
            continue
        except BaseException as e:  # pragma: no cover
            pytest.fail(f"case {case}: {key}={value!r:.100} raised {type(e).__name__}: {e}")
        try:
            mask = np.zeros((2, env.num_actions), dtype=np.int8)
            to_play = np.zeros(2, dtype=np.int32)
            env.reset(mask, to_play)
            ids = np.array([int(np.flatnonzero(m)[0]) if m.any() else 0 for m in mask])
            z = np.zeros(2, dtype=bool)
            env.step(ids, mask, np.zeros((2, env.num_players), dtype=np.float32), to_play, z, z.copy())
        except CarcassonneError:
            pass
        except BaseException as e:  # pragma: no cover
            pytest.fail(f"case {case}: {key}={value!r:.100} then raised {type(e).__name__}: {e}")


def test_a_record_that_cannot_be_read_back_is_not_written() -> None:
    game = Game(players=2, seed=1)
    with pytest.raises(carcassonne.InvalidArgumentError, match="id: the record would be"):
        game.to_record("x" * (5 << 20))
    assert len(game.to_record("x" * 1000)) < 10_000


def test_smaller_leniencies_are_refused() -> None:
    # A penalty that is finite as a Python float but infinite as a float32 reward.
    with pytest.raises(InvalidConfigError, match="illegal_penalty"):
        VectorEnv(1, illegal_action="penalize", illegal_penalty=1e39)
    # Booleans are no integers, as for flat ids.
    with pytest.raises(carcassonne.InvalidArgumentError):
        VectorEnv(True)
    with pytest.raises(carcassonne.InvalidArgumentError):
        VectorEnv(2).reset(seed=[True, False])
    game = Game(players=2, seed=1)
    tile = [a for a in game.legal_actions() if type(a).__name__ == "PlaceTile"][0]
    with pytest.raises(carcassonne.IllegalActionError, match="rot"):
        game._g.apply(("place_tile", tile.x, tile.y, True))
    with pytest.raises(carcassonne.InvalidArgumentError):
        game._g.step_flat(True)
    with pytest.raises(InvalidConfigError):
        carcassonne.match(["random", "random"], games=2, seed=True)
    # Bot specs are read exactly: no surrounding space, each option once.
    for spec in ["greedy ", " random", "mcts:100:threads=2:threads=3", "mcts:100: threads=2"]:
        with pytest.raises(carcassonne.InvalidArgumentError):
            carcassonne.BuiltinPlayer(spec)
    # A record's events name a seat and a known score; an action of another player names
    # him.
    record = _finished_record()
    assert record["final_events"]
    for change, field in [
        (lambda e: e.update(player=99), "player"),
        (lambda e: e.update(what="jackpot"), "what"),
    ]:
        bad = json.loads(json.dumps(record))
        i = next(i for i, e in enumerate(bad["final_events"]) if "points" in e)
        change(bad["final_events"][i])
        with pytest.raises(InvalidRecordError, match=f"final_events\\[{i}\\]\\.{field}"):
            Game.from_record(json.dumps(bad))


# ----- random fuzzing ---------------------------------------------------------------------


def _hostile(r: random.Random, depth: int = 0) -> Any:
    choices: List[Callable[[], Any]] = [
        lambda: None,
        lambda: r.choice([True, False]),
        lambda: r.choice([-1, 0, 1, 2, 3, 6, 7, 2**31, 2**63, -(2**63), 2**64, 10**30]),
        lambda: r.choice([0.5, float("nan"), float("inf"), -0.0]),
        lambda: r.choice(["", "base", "river1", "abbey-and-mayor", "C1", "on-tile", "x" * 5000]),
        lambda: object(),
        lambda: b"base",
    ]
    if depth < 3:
        choices += [
            lambda: [_hostile(r, depth + 1) for _ in range(r.randrange(4))],
            lambda: tuple(_hostile(r, depth + 1) for _ in range(r.randrange(3))),
            lambda: {
                r.choice(["fairy", "farmers", "abbot", "tile", "rot", "x", 1]): _hostile(r, depth + 1)
                for _ in range(r.randrange(3))
            },
        ]
    return r.choice(choices)()


ALLOWED = (CarcassonneError, TypeError)


def test_fuzz_config_keywords() -> None:
    r = random.Random(1)
    keys = ["players", "sets", "edition", "rules", "figures", "seed", "start"]
    for case in range(FUZZ_CASES):
        kwargs = {k: _hostile(r) for k in r.sample(keys, r.randrange(1, len(keys)))}
        try:
            Game(**kwargs)
        except ALLOWED:
            pass
        except BaseException as e:  # pragma: no cover - the failure is the report
            pytest.fail(f"case {case}: {kwargs!r:.300} raised {type(e).__name__}: {e}")


def test_fuzz_records() -> None:
    r = random.Random(2)
    base = _finished_record()
    text = json.dumps(base)
    for case in range(FUZZ_CASES):
        record = json.loads(text)
        # One random change somewhere in the tree.
        node: Any = record
        for _ in range(r.randrange(4)):
            if isinstance(node, dict) and node:
                child = node[r.choice(list(node))]
            elif isinstance(node, list) and node:
                child = r.choice(node)
            else:
                break
            if not isinstance(child, (dict, list)):
                break
            node = child
        value = _hostile(r)
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            value = None
        if isinstance(node, dict):
            node[r.choice(list(node) + ["extra"])] = value
        elif isinstance(node, list) and node:
            node[r.randrange(len(node))] = value
        mutated = json.dumps(record)
        if r.random() < 0.2:
            cut = r.randrange(len(mutated))
            mutated = mutated[:cut] + r.choice(["", "{", "]", '"', "\\u0000", "\n"]) + mutated[cut + 1 :]
        try:
            g = Game.from_record(mutated)
        except InvalidRecordError as e:
            assert len(str(e)) < 1000, f"case {case}: message of {len(str(e))} bytes"
            continue
        except BaseException as e:  # pragma: no cover
            pytest.fail(f"case {case} raised {type(e).__name__}: {e}")
        assert Game.from_record(g.to_record()).scores == g.scores


def test_fuzz_vector_env_arguments() -> None:
    r = random.Random(3)
    names = ["players", "sets", "seed", "window", "reward", "opponents", "learner_seat",
             "outside_window", "illegal_action", "illegal_penalty", "autoreset", "threads"]
    good: Dict[str, List[Any]] = {
        "window": [3, 9, 32, 0, -1, 2**40],
        "reward": ["score", "outcome", "nope"],
        "opponents": [None, "random", "greedy", "nobody"],
        "learner_seat": [None, 0, 1, -1, 9],
        "outside_window": ["mask", "truncate", "?"],
        "illegal_action": ["raise", "penalize", "random", "x"],
        "illegal_penalty": [-1.0, float("nan"), float("inf")],
        "autoreset": ["same-step", "next-step", "disabled", "later"],
        "threads": [1, 2, 0, 300],
    }
    cases = max(1, FUZZ_CASES // 3)
    for case in range(cases):
        kwargs: Dict[str, Any] = {}
        for k in r.sample(names, r.randrange(len(names))):
            kwargs[k] = r.choice(good[k]) if k in good and r.random() < 0.8 else _hostile(r)
        num_envs = r.choice([1, 2, 3, 0, -1, 2**20, 2**40, 2**70])
        try:
            env = VectorEnv(num_envs, **kwargs)
        except ALLOWED:
            continue
        except BaseException as e:  # pragma: no cover
            pytest.fail(f"case {case}: {num_envs}, {kwargs!r:.300} raised {type(e).__name__}: {e}")
        obs, _ = env.reset(seed=r.choice([None, 0, 5]))
        for _ in range(3):
            ids = np.array(
                [r.choice([-1, 0, 10**6, int(np.flatnonzero(m)[0]) if m.any() else 0]) for m in obs["action_mask"]]
            )
            try:
                obs, *_ = env.step(ids)
            except ALLOWED:
                pass
