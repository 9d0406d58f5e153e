"""What a game client needs from Python: exact save and resume (records, pickling and
deep copies of ``Game``, ``VectorEnv``, the Gymnasium and PettingZoo environments, each
continuing identically: same observations, same draws), scoring events, tile geometry
against the catalogue ``tests/data/tiles.json``, the last placed tile, the pending focus
and its cancelling, and the window origin."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any, Dict, List, Set, Tuple

import numpy as np
import pytest

import carcassonne
from conftest import DATA, offered

#: The base game and the sets of the first rules seeds, whose score events all name a
#: feature (the later sets' goods, bazaars and ransoms score outside features).
FIRST_SETS = ["base", "river1", "river2", "princess-and-dragon", "abbey-and-mayor"]


def _flat_step(game: carcassonne.Game, r: np.random.Generator) -> None:
    """One step by flat id (a ``CELL`` id may leave a focus pending); a structured
    action when the window offers nothing."""
    ids = offered(game.legal_mask())
    if ids:
        game.step_flat(ids[int(r.integers(len(ids)))])
    else:
        legal = game.legal_actions()
        game.apply(legal[int(r.integers(len(legal)))])


def _same_observation(a: carcassonne.Game, b: carcassonne.Game) -> None:
    for seat in range(a.num_players):
        oa, ob = a.observation(seat), b.observation(seat)
        for key in ("board", "globals", "action_mask"):
            np.testing.assert_array_equal(oa[key], ob[key])


def _pick_cell(game: carcassonne.Game) -> None:
    """Takes a ``CELL`` id that picks a focus, if the decision offers one."""
    info = carcassonne.encoder_info(game.window)
    for i in offered(game.legal_mask()):
        if info["cell_base"] <= i < info["slot_base"] and isinstance(game.decode_flat(i), carcassonne.Focus):
            game.step_flat(i)
            return


@pytest.mark.parametrize("stop", [0, 17, 60, 140])
def test_game_pickles_and_copies_and_continues_identically(stop: int) -> None:
    game = carcassonne.Game(players=3, sets=FIRST_SETS, figures={"abbot": 1}, seed=31, window=11)
    r = np.random.default_rng(stop)
    for _ in range(stop):
        if game.is_terminal:
            break
        _flat_step(game, r)
    if not game.is_terminal:
        _pick_cell(game)
    copies = [
        pickle.loads(pickle.dumps(game)),
        copy.deepcopy(game),
        copy.copy(game),
        carcassonne.Game.from_record(game.to_record()),
    ]
    for c in copies:
        assert c.state_hash() == game.state_hash()
        assert c.pending_focus == game.pending_focus
        assert c.window == game.window == 11
        assert c.chance == "sampled"
        _same_observation(c, game)
    seed = stop + 1
    while not game.is_terminal:
        ra = np.random.default_rng(seed)
        _flat_step(game, ra)
        for c in copies:
            _flat_step(c, np.random.default_rng(seed))
            assert c.state_hash() == game.state_hash()
            assert c.tile_in_hand == game.tile_in_hand, "the same draws"
        seed += 1
    for c in copies:
        assert c.to_record("x") == game.to_record("x")


def test_from_record_overrides_and_old_records() -> None:
    game = carcassonne.Game(players=2, seed=4, window=9)
    r = np.random.default_rng(0)
    for _ in range(20):
        _flat_step(game, r)
    text = game.to_record()
    assert json.loads(text)["resume"]["window"] == 9
    assert carcassonne.Game.from_record(text).window == 9
    assert carcassonne.Game.from_record(text, window=15).window == 15
    assert carcassonne.Game.from_record(text, chance="explicit").chance == "explicit"
    with pytest.raises(carcassonne.InvalidConfigError, match="chance"):
        carcassonne.Game.from_record(text, chance="dice")
    with pytest.raises(carcassonne.InvalidRecordError, match="resume.rng"):
        broken = json.loads(text)
        broken["resume"]["rng"] = "00"
        carcassonne.Game.from_record(json.dumps(broken))
    # A record without `resume` (another engine's) loads in sampled mode with the default window.
    reference = json.loads((DATA / "base-c2.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert "resume" not in reference
    old = carcassonne.Game.from_record(json.dumps(reference))
    assert old.window == 32 and old.is_terminal


def _vector_buffers(env: carcassonne.VectorEnv) -> Dict[str, Any]:
    return {
        "board": env.board,
        "globals": env.globals,
        "mask": env.action_mask,
        "rewards": env.rewards,
        "to_play": env.to_play,
        "terminated": env.terminated,
        "truncated": env.truncated,
        "final_scores": env.final_scores,
        "episode_returns": env.episode_returns,
        "episode_lengths": env.episode_lengths,
        "episode_seeds": env.episode_seeds(),
        "final_board": env.final_board if env.final_board is not None else np.zeros(0),
    }


@pytest.mark.parametrize(
    "options",
    [
        dict(),
        dict(opponents="random", learner_seat=None, autoreset="next-step", illegal_action="random"),
        dict(opponents="greedy", reward="outcome", illegal_action="penalize", illegal_penalty=-2.5),
        dict(opponents="mcts:8:c=0.7", preset="compact", learner_seat=None, final_observations=True),
        dict(preset="in-play", reward="score-diff"),
    ],
)
def test_vector_env_pickles_and_continues_identically(options: Dict[str, Any]) -> None:
    env = carcassonne.VectorEnv(3, players=2, sets=["base", "princess-and-dragon"], seed=9, window=9, **options)
    env.reset()
    r = np.random.default_rng(1)

    def actions() -> np.ndarray:
        return np.array([int(r.choice(np.flatnonzero(m))) if m.any() else 0 for m in env.action_mask])

    for _ in range(40):
        env.step(actions())
    copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    for c in copies:
        np.testing.assert_array_equal(c.learner_seats(), env.learner_seats())
        for key, value in _vector_buffers(env).items():
            np.testing.assert_array_equal(_vector_buffers(c)[key], value, err_msg=key)
    done = 0
    for _ in range(400):  # several episodes: resets continue the seed sequence
        a = actions()
        if "illegal_action" in options:
            a[0] = 10**6  # refused: penalized or replaced by a random legal id
        env.step(a)
        for c in copies:
            c.step(a.copy())
            for key, value in _vector_buffers(env).items():
                np.testing.assert_array_equal(_vector_buffers(c)[key], value, err_msg=key)
        done += int(env.terminated.sum() + env.truncated.sum())
    assert done > 0, "episodes ended and restarted identically"
    for i in range(3):
        assert copies[0].game(i).board() == env.game(i).board()
    assert copies[0].preset == env.preset == options.get("preset", "full")


@pytest.mark.parametrize("opponents", ["greedy", "pool"])
def test_gymnasium_envs_pickle_and_continue_identically(opponents: str) -> None:
    gym = pytest.importorskip("gymnasium")
    from carcassonne.opponents import OpponentPool

    # A pool is played from Python: its members' generators are pickled with the env.
    opp: Any = OpponentPool([carcassonne.BuiltinPlayer("greedy", seed=1), "random"]) if opponents == "pool" else opponents
    env = gym.make("Carcassonne-v0", players=3, opponents=opp, learner_seat=None, preset="compact")
    obs, _ = env.reset(seed=3)
    r = np.random.default_rng(2)
    for _ in range(15):
        obs, *_ = env.step(int(r.choice(np.flatnonzero(obs["action_mask"]))))
    twins = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    episodes = 0
    for _ in range(300):
        action = int(r.choice(np.flatnonzero(obs["action_mask"])))
        step = env.step(action)
        for t in twins:
            other = t.step(action)
            for key in obs:
                np.testing.assert_array_equal(other[0][key], step[0][key])
            assert other[1:4] == step[1:4]
            assert t.unwrapped.game().board() == env.unwrapped.game().board()
        obs = step[0]
        if step[2] or step[3]:
            episodes += 1
            obs, _ = env.reset()
            for t in twins:
                again, _ = t.reset()
                np.testing.assert_array_equal(again["board"], obs["board"])
    assert episodes > 0
    from carcassonne.env import CarcassonneVectorEnv

    vec = CarcassonneVectorEnv(2, players=2)
    vobs, _ = vec.reset(seed=5)
    twin = pickle.loads(pickle.dumps(vec))
    for _ in range(50):
        # After an episode ends the mask is empty and the next action is ignored.
        a = np.array([int(r.choice(np.flatnonzero(m))) if m.any() else 0 for m in vobs["action_mask"]])
        vobs, rew, term, trunc, _ = vec.step(a)
        tobs, trew, tterm, ttrunc, _ = twin.step(a)
        np.testing.assert_array_equal(tobs["board"], vobs["board"])
        np.testing.assert_array_equal(trew, rew)


def test_pettingzoo_env_pickles_and_continues_identically() -> None:
    pytest.importorskip("pettingzoo")
    from carcassonne import pettingzoo as cpz

    env = cpz.env(players=3, window=11)
    env.reset(seed=7)
    r = np.random.default_rng(4)

    def act(e: Any) -> Any:
        mask = e.observe(e.agent_selection)["action_mask"]
        return int(r.choice(np.flatnonzero(mask)))

    for _ in range(30):
        env.step(act(env))
    twins = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    for _ in range(2000):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        action = act(env)
        env.step(action)
        for t in twins:
            t.step(action)
            assert t.agent_selection == env.agent_selection
            assert t.rewards == env.rewards
            a, b = t.observe(t.agent_selection), env.observe(env.agent_selection)
            np.testing.assert_array_equal(a["observation"], b["observation"])
            np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
    env.reset()
    for t in twins:
        t.reset()
        assert t.game.board() == env.game.board(), "the next episode draws the same seed"


def test_events_add_up_and_name_what_a_client_shows() -> None:
    game = carcassonne.Game(players=4, sets=FIRST_SETS, figures={"abbot": 1}, seed=12)
    r = np.random.default_rng(3)
    shown: List[Dict[str, Any]] = []
    while not game.is_terminal:
        legal = game.legal_actions()
        game.apply(legal[int(r.integers(len(legal)))])
        shown.extend(game.events(len(shown)))
        assert len(shown) == game.event_count
    assert game.events() == shown
    sums = [0] * 4
    causes: Set[str] = set()
    for e in shown:
        if e["type"] == "score":
            sums[e["player"]] += e["points"]
            if e["what"] != "fairy.turn":
                assert e["at"] in e["parts"]
                kinds = {game_feature_kind(game, p) for p in e["parts"]}
                assert kinds == {e["feature"]}
        else:
            assert e["type"] == "figure-returned"
            assert e["figure"] in ("follower", "abbot", "mayor", "wagon")
            causes.add(e["cause"])
    assert sums == game.scores
    assert "final-scoring" in causes and "scored" in causes
    finals = [e for e in shown if e["turn"] is None]
    assert finals and shown[-len(finals):] == finals
    with pytest.raises(carcassonne.InvalidArgumentError):
        game.events(len(shown) + 1)


def game_feature_kind(game: carcassonne.Game, part: Tuple[int, int, int]) -> str:
    x, y, f = part
    tile = next(t for t in game.board() if (t[0], t[1]) == (x, y))[2]
    kind: str = carcassonne.tile_geometry(tile)[f]["kind"]
    return kind


def _turned(name: str, rot: int) -> str:
    sides = "NESW"
    return sides[(sides.index(name[0]) + rot) % 4] + name[1:]


def test_tile_geometry_matches_the_catalogue() -> None:
    catalogue = json.loads((DATA / "tiles.json").read_text(encoding="utf-8"))
    ids = set(carcassonne.tile_ids())
    checked = 0
    engine_sets = {t["set"] for t in catalogue["tiles"] if t["id"] in ids}
    for t in catalogue["tiles"]:
        if t["set"] not in engine_sets:
            continue
        assert t["id"] in ids
        # TB1: one goods symbol; which goods is the city part's.
        symbols = {"goods" if s.startswith("goods:") else s for s in t["symbols"]}
        assert sorted(carcassonne.tile_symbols(t["id"])) == sorted(symbols)
        for rot in range(4):
            geometry = carcassonne.tile_geometry(t["id"], rot)
            assert [g["id"] for g in geometry] == [f["id"] for f in t["features"]]
            for g, f in zip(geometry, t["features"]):
                ctx = f"{t['id']} {f['id']} rot {rot}"
                segments = {_turned(s, rot) for s in f.get("segments", [])}
                assert set(g["segments"]) == segments, ctx
                kind = "monastery" if f["type"] == "abbey" else f["type"]
                assert g["kind"] == kind, ctx
                assert g["pennants"] == f.get("pennants", 0), ctx
                assert g["adjacent_cities"] == f.get("adjacent_cities", []), ctx
                flags = [k for k in ("princess", "tunnel", "inner", "inn", "pig_herd", "well") if f.get(k)]
                assert g["flags"] == flags, ctx
                corners = [
                    c
                    for c, (a, b) in zip(["NW", "NE", "SE", "SW"], [("W2", "N0"), ("N2", "E0"), ("E2", "S0"), ("S2", "W0")])
                    if a in segments and b in segments
                ]
                assert g["corners"] == corners, ctx
                if f["type"] in ("road", "river"):
                    assert g["road_end"] is not None, ctx
                    assert (g["road_end"] == "through") == (len(f["open_sides"]) >= 2), ctx
                else:
                    assert g["road_end"] is None, ctx
                # A feature leaves its tile through any of its thirds (a road by the middle
                # one; two cities may share a side, HS-CORNER-AND-CAP-VINEYARD).
                sides = [s for s in "NESW" if any(f"{s}{k}" in segments for k in range(3))]
                assert g["sides"] == sides, ctx
                checked += 1
    assert checked == 4 * sum(len(carcassonne.tile_geometry(i)) for i in ids)
    with pytest.raises(carcassonne.InvalidArgumentError):
        carcassonne.tile_geometry("BASE-D", 4)
    with pytest.raises(carcassonne.InvalidArgumentError):
        carcassonne.tile_geometry("NOPE")


def test_last_placed_focus_and_window_origin() -> None:
    game = carcassonne.Game(players=2, sets=["base", "princess-and-dragon"], seed=5, window=11)
    r = np.random.default_rng(8)
    info = carcassonne.encoder_info(11)
    cancelled = 0
    for _ in range(300):
        if game.is_terminal:
            break
        assert game.last_placed == game.board()[-1]
        ox, oy = game.window_origin()
        mask = game.legal_mask()
        for i in offered(mask):
            if info["cell_base"] <= i < info["slot_base"]:
                decision = game.decode_flat(i)
                if isinstance(decision, carcassonne.Focus):
                    game.step_flat(i)
                    cell = i - info["cell_base"]
                    assert game.pending_focus == (ox + cell % 11, oy + cell // 11)
                    assert game.cancel_focus()
                    assert game.pending_focus is None
                    assert not game.cancel_focus()
                    np.testing.assert_array_equal(game.legal_mask(), mask)
                    cancelled += 1
                break
        _flat_step(game, r)
    assert cancelled > 0
