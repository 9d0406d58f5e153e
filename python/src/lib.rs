//! `carcassonne._core`: the compiled part of the Python package `carcassonne`.
//!
//! The rules engine (crate `carcassonne`) knows nothing of Python; this crate converts
//! between Python values and the engine's types, and releases the interpreter for batch
//! work (`VectorEnv`). The Python package wraps these classes with readable
//! action objects, Gymnasium and PettingZoo environments (`python/carcassonne/`); the
//! typed interface is `python/carcassonne/_core.pyi`.

mod convert;
mod errors;
mod game;
mod loader;
mod search;
mod selfplay;
mod signals;
mod vector;

use pyo3::prelude::*;

/// The allocator of every Rust allocation of this module (the games, their sessions and
/// scratch buffers; Python objects and numpy arrays keep Python's). A `VectorEnv` steps
/// each of its games in turn, and each game's state is cold by the time its turn comes.
/// With the system allocator the states' many small buffers lie on as many 4 KiB pages,
/// and the batch waits on address translation as well as on cache misses: the same
/// allocations on transparent huge pages (glibc's `GLIBC_TUNABLES=glibc.malloc.hugetlb=1`)
/// made the masks-only step about a third faster. mimalloc takes its memory in large
/// segments on transparent huge pages by itself. `docs/benchmarks.md` has the A/B
/// figures.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Compiled core of the `carcassonne` package: the rules engine, observations and the
/// native vector environment.
#[pymodule]
mod _core {
    use super::*;
    use crate::convert::{Int, Seed};
    use crate::errors::{invalid_argument, invalid_config};
    use crate::game::{info_dict, layout_from, reward_from, spec_from};
    use crate::signals::SignalWatch;
    use carcassonne::{catalogue, Game, Rng};
    use carcassonne_session::bots::Bot;
    use carcassonne_session::encode::{self, FlatAction};
    use carcassonne_session::matches::{run_match_until, MatchSpec};
    use numpy::ndarray::{Array2, Array3};
    use numpy::{
        IntoPyArray, PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArrayDyn,
        PyUntypedArrayMethods,
    };
    use pyo3::types::{PyDict, PyList};
    use std::time::Instant;

    #[pymodule_export]
    use crate::game::PyGame;
    #[pymodule_export]
    use crate::loader::PyDatasetLoader;
    #[pymodule_export]
    use crate::selfplay::selfplay;
    #[pymodule_export]
    use crate::vector::VectorEnv;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        m.add("LAYOUT_VERSION", encode::layout_version_hex())?;
        Ok(())
    }

    /// The action schema: `(type name, [(field name, field kind), ...], names player,
    /// doc)` for every action kind, in kind order. The classes of `carcassonne.actions`
    /// are generated from it (`python/tools/gen_actions.py`).
    #[pyfunction]
    fn action_schema() -> Vec<carcassonne_session::schemas::ActionKindRow> {
        carcassonne_session::schemas::action_kinds()
    }

    /// The schema of the expansions' state: `(name, expansion, rows, doc, [(column, kind,
    /// optional, doc), ...])` for every table, in the engine's order. `rows` is `one`,
    /// `optional`, `per-seat` or `many`; `kind` is `seat`, `int`, `flag`, `x`, `y`,
    /// `feature`, `quarter`, `figure`, `tile` or `axis`. The typed dicts of
    /// `carcassonne.state` are generated from it (`python/tools/gen_state.py`).
    #[pyfunction]
    fn state_schema() -> Vec<carcassonne_session::schemas::StateTableRow> {
        carcassonne_session::schemas::state_tables()
    }

    /// A game from its record and observation preset, resumed exactly (unpickling
    /// `Game`).
    #[pyfunction]
    #[pyo3(signature = (text, preset="full"))]
    fn _game_from_record(
        py: Python<'_>,
        text: &str,
        preset: &str,
    ) -> PyResult<crate::game::PyGame> {
        let session = crate::game::session_from_record(py, text, None, None)?;
        Ok(crate::game::PyGame::from_session(crate::game::with_preset(
            session, preset,
        )?))
    }

    /// A batch from its pickled state (unpickling `VectorEnv`).
    #[pyfunction]
    fn _vector_env_from_state(state: &str) -> PyResult<crate::vector::VectorEnv> {
        crate::vector::VectorEnv::from_state_text(state)
    }

    /// The geometry of every feature of tile `tile_id` turned by `rot` clockwise quarter
    /// turns (0: the catalogue's frame), in catalogue order: dicts with `id`, `kind`,
    /// `segments` (edge thirds `N0`..`W2`), `sides`, `corners` (`NW`, ...: both edge
    /// thirds at the corner belong to it), `pennants`, `adjacent_cities` (ids),
    /// `flags` (`princess`, `tunnel`, `inner`, `inn`, `pig_herd`, `well`), `road_end`
    /// and `road_end_feature`.
    #[pyfunction]
    #[pyo3(signature = (tile_id, rot=Int(0)), text_signature = "(tile_id, rot=0)")]
    fn tile_geometry<'py>(
        py: Python<'py>,
        tile_id: &str,
        rot: Int,
    ) -> PyResult<Bound<'py, pyo3::types::PyList>> {
        crate::convert::tile_geometry(py, tile_id, rot.0)
    }

    /// The symbols printed on tile `tile_id` (catalogue names: `monastery`, `garden`,
    /// `river`, `volcano`, `dragon`, `magic_portal`, `princess`, `tunnel`, `inn`,
    /// `pig_herd`, `well`, `abbey`).
    #[pyfunction]
    fn tile_symbols(tile_id: &str) -> PyResult<Vec<&'static str>> {
        let kind = crate::convert::tile_kind(tile_id)?;
        Ok(kind.def().symbols.names().collect())
    }

    /// Catalogue tile ids in catalogue order (the order of the tile blocks of the globals).
    #[pyfunction]
    fn tile_ids() -> Vec<&'static str> {
        catalogue().kinds().map(|k| k.id()).collect()
    }

    /// Names of the decision phases (`Game.phase`), in the order of the globals' `phase`
    /// one-hot.
    #[pyfunction]
    fn phase_names() -> Vec<&'static str> {
        carcassonne::Phase::ALL
            .map(carcassonne::Phase::name)
            .to_vec()
    }

    /// Plane names by index.
    #[pyfunction]
    fn plane_names() -> Vec<String> {
        encode::plane_table()
            .iter()
            .map(|p| p.name.clone())
            .collect()
    }

    /// Global blocks: `(name, start, length)` in index order.
    #[pyfunction]
    fn global_blocks() -> Vec<(&'static str, usize, usize)> {
        encode::global_table()
            .iter()
            .map(|g| (g.name, g.start, g.len))
            .collect()
    }

    /// Sizes of the learning interface for window side `window` and observation preset
    /// `preset` (`full`, `in-play`, `compact`; the last two depend on the game
    /// configuration, given by the other keywords as for `Game`): `layout_version` (the
    /// hash of the observation schema, as `LAYOUT_VERSION`), `num_planes`, `num_globals`,
    /// `num_actions`, the first ids of the `cell`, `slot`, `corner` blocks and the `pass`
    /// id (`None` for a block the preset lacks), `num_slots` and `num_channels` (the sides
    /// of the preset's `SLOT` block: ids `slot_base + slot_k·num_channels + channel_k`),
    /// `plane_names`, `global_blocks` (`(name, start, length)`), `action_blocks`
    /// (`(name, first id, ids)`), and `global_layout` and `action_layout`: per block a
    /// dict of `name`, `start`, `shape` (entries per index, flattened row-major),
    /// `indices` (what each index stands for) and `labels` (per index, its entries).
    #[pyfunction]
    #[pyo3(signature = (window=Int(32), preset="full", players=None, sets=None, edition=None, rules=None, figures=None), text_signature = "(window=32, preset='full', players=None, sets=None, edition=None, rules=None, figures=None)")]
    #[allow(clippy::too_many_arguments)]
    fn encoder_info<'py>(
        py: Python<'py>,
        window: Int,
        preset: &str,
        players: Option<&Bound<'py, PyAny>>,
        sets: Option<&Bound<'py, PyAny>>,
        edition: Option<&Bound<'py, PyAny>>,
        rules: Option<&Bound<'py, PyAny>>,
        figures: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let spec = spec_from(window.0)?;
        let config = crate::convert::config_from_args(crate::convert::ConfigArgs {
            players,
            sets,
            edition,
            rules,
            figures,
            seed: None,
            start: None,
        })?;
        let layout = layout_from(spec, preset, &config)?;
        info_dict(py, &layout)
    }

    /// A flat id taken apart: `("tile", rot, wx, wy)`, `("cell", wx, wy)`,
    /// `("slot", slot_name, channel_name)`, `("corner", name)`,
    /// `("enter_quarter", figure, quarter)`, `("move_count", quarter)`,
    /// `("bridge", rot, variant)`, `("bazaar_select", place, bid)`, `("bazaar_bid", bid)`,
    /// `("bazaar_choice", buy|sell)`, `("exchange_prisoner", figure)`,
    /// `("pay_ransom", holder, figure)` (the holder a seat relative to the payer),
    /// `("flock", grow|herd)` or `("pass",)`.
    #[pyfunction]
    #[pyo3(signature = (id, window=Int(32)), text_signature = "(id, window=32)")]
    fn describe_action_id(id: Int, window: Int) -> PyResult<(String, Vec<String>)> {
        let spec = spec_from(window.0)?;
        let id = id.0;
        let parts = u32::try_from(id)
            .ok()
            .and_then(|i| FlatAction::from_id(spec, i))
            .ok_or_else(|| {
                invalid_argument(format!("id {id}: ids are 0..{}", spec.num_actions()))
            })?;
        Ok(match parts {
            FlatAction::Tile { rot, wx, wy } => (
                "tile".into(),
                vec![
                    rot.quarter_turns().to_string(),
                    wx.to_string(),
                    wy.to_string(),
                ],
            ),
            FlatAction::Cell { wx, wy } => ("cell".into(), vec![wx.to_string(), wy.to_string()]),
            FlatAction::Slot { slot, channel } => (
                "slot".into(),
                vec![encode::slot::name(slot), channel.name().to_string()],
            ),
            FlatAction::Corner(c) => ("corner".into(), vec![c.name().to_string()]),
            FlatAction::EnterQuarter { figure, quarter } => (
                "enter_quarter".into(),
                vec![figure.name().to_string(), quarter.name().to_string()],
            ),
            FlatAction::MoveCount(q) => ("move_count".into(), vec![q.name().to_string()]),
            FlatAction::Bridge { rot, variant } => (
                "bridge".into(),
                vec![rot.quarter_turns().to_string(), variant.to_string()],
            ),
            FlatAction::BazaarSelect { place, bid } => (
                "bazaar_select".into(),
                vec![place.to_string(), bid.to_string()],
            ),
            FlatAction::Bid(bid) => ("bazaar_bid".into(), vec![bid.to_string()]),
            FlatAction::Choice(c) => ("bazaar_choice".into(), vec![c.name().to_string()]),
            FlatAction::Exchange(f) => ("exchange_prisoner".into(), vec![f.name().to_string()]),
            FlatAction::Ransom { holder, figure } => (
                "pay_ransom".into(),
                vec![holder.to_string(), figure.name().to_string()],
            ),
            FlatAction::Flock(c) => ("flock".into(), vec![c.name().to_string()]),
            FlatAction::Pass => ("pass".into(), vec![]),
        })
    }

    /// `board` (uint8 [C, W, W]) after `quarter_turns` clockwise quarter turns.
    #[pyfunction]
    fn rotate_board<'py>(
        py: Python<'py>,
        board: PyReadonlyArrayDyn<'py, u8>,
        quarter_turns: Int,
    ) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let quarter_turns = quarter_turns.0;
        let shape = board.shape().to_vec();
        if shape.len() != 3 || shape[1] != shape[2] || shape[0] != encode::plane::COUNT {
            return Err(invalid_argument(format!(
                "board: shape {shape:?}, expected [{}, W, W]",
                encode::plane::COUNT
            )));
        }
        let spec = spec_from(shape[1] as i64)?;
        let src = board
            .as_slice()
            .map_err(|e| invalid_argument(format!("board: {e}")))?;
        let mut out = Array3::<u8>::zeros((shape[0], shape[1], shape[2]));
        encode::rotate_planes(
            spec,
            src,
            out.as_slice_mut().expect("standard layout"),
            quarter_turns.rem_euclid(4) as u8,
        )
        .map_err(|e| invalid_argument(e.to_string()))?;
        Ok(out.into_pyarray(py))
    }

    /// `globals` (float32 [G] of the full encoding) after `quarter_turns` clockwise quarter
    /// turns: the blocks indexed by rotation (`focus-rotation`) turn, the others stay.
    #[pyfunction]
    fn rotate_globals<'py>(
        py: Python<'py>,
        globals: PyReadonlyArrayDyn<'py, f32>,
        quarter_turns: Int,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let spec = encode::EncoderSpec::default();
        let shape = globals.shape().to_vec();
        if shape != [spec.num_globals()] {
            return Err(invalid_argument(format!(
                "globals: shape {shape:?}, expected [{}]",
                spec.num_globals()
            )));
        }
        let src = globals
            .as_slice()
            .map_err(|e| invalid_argument(format!("globals: {e}")))?;
        let mut out = vec![0f32; src.len()];
        encode::rotate_globals(spec, src, &mut out, quarter_turns.0.rem_euclid(4) as u8)
            .map_err(|e| invalid_argument(e.to_string()))?;
        Ok(numpy::ndarray::Array1::from_vec(out).into_pyarray(py))
    }

    /// The flat id of the same move after `quarter_turns` clockwise quarter turns.
    #[pyfunction]
    #[pyo3(signature = (id, quarter_turns, window=Int(32)), text_signature = "(id, quarter_turns, window=32)")]
    fn rotate_action_id(id: Int, quarter_turns: Int, window: Int) -> PyResult<u32> {
        let spec = spec_from(window.0)?;
        let (id, quarter_turns) = (id.0, quarter_turns.0);
        u32::try_from(id)
            .ok()
            .and_then(|i| encode::rotate_action_id(spec, i, quarter_turns.rem_euclid(4) as u8))
            .ok_or_else(|| invalid_argument(format!("id {id}: ids are 0..{}", spec.num_actions())))
    }

    /// The game seed of episode `episode` (0, 1, ...) of env `env` of a `VectorEnv` made
    /// with seed `seed`: each env draws its seeds from its own SplitMix64 stream, so
    /// batches made with different seeds share no game.
    #[pyfunction]
    fn episode_seed(seed: Seed, env: Int, episode: Int) -> PyResult<u64> {
        let get = |name: &str, v: Int| {
            u64::try_from(v.0).map_err(|_| invalid_argument(format!("{name}: {} is negative", v.0)))
        };
        Ok(carcassonne_session::vector::episode_seed(
            seed.0,
            get("env", env)?,
            get("episode", episode)?,
        ))
    }

    /// Rewards per player for one step (see `docs/observations.md`).
    #[pyfunction]
    fn step_rewards(
        mode: &str,
        before: Vec<i32>,
        after: Vec<i32>,
        terminal: bool,
    ) -> PyResult<Vec<f32>> {
        let mode = reward_from(mode)?;
        let mut out = vec![0f32; after.len()];
        encode::step_rewards(mode, &before, &after, terminal, &mut out)
            .map_err(|e| invalid_argument(e.to_string()))?;
        Ok(out)
    }

    /// Plays `num_games` games natively between built-in players (`players`: one spec
    /// per seat, `random`, `greedy` or `mcts:<budget>...`) and returns the final scores,
    /// int32 [num_games, P]. Game `g` uses seed `seed + g`. Other keywords as for `Game`.
    /// Runs without the interpreter; Ctrl-C stops it within 20 ms, also during a search
    /// (`KeyboardInterrupt`).
    #[pyfunction]
    #[pyo3(signature = (num_games, players, seed=None, sets=None, edition=None, rules=None, figures=None), text_signature = "(num_games, players, seed=0, sets=None, edition=None, rules=None, figures=None)")]
    #[allow(clippy::too_many_arguments)]
    fn play_games<'py>(
        py: Python<'py>,
        num_games: Int,
        players: Vec<String>,
        seed: Option<&Bound<'py, PyAny>>,
        sets: Option<&Bound<'py, PyAny>>,
        edition: Option<&Bound<'py, PyAny>>,
        rules: Option<&Bound<'py, PyAny>>,
        figures: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<i32>>> {
        let kinds: Vec<Bot> = players
            .iter()
            .map(|name| Bot::parse(name).map_err(|m| invalid_config(format!("players: {m}"))))
            .collect::<PyResult<_>>()?;
        let num_games = num_games.0;
        let n = usize::try_from(num_games)
            .ok()
            .filter(|n| *n <= 1_000_000)
            .ok_or_else(|| invalid_config(format!("num_games: {num_games}; 0 to 1000000")))?;
        let count = (kinds.len() as i64).into_pyobject(py)?.into_any();
        let zero = 0u64.into_pyobject(py)?.into_any();
        let config = crate::convert::config_from_args(crate::convert::ConfigArgs {
            players: Some(&count),
            sets,
            edition,
            rules,
            figures,
            seed: Some(seed.unwrap_or(&zero)),
            start: None,
        })?;
        for kind in &kinds {
            kind.check(&config)
                .map_err(|m| invalid_config(format!("players: {m}")))?;
        }
        let seed = config.seed;
        let p = kinds.len();
        // The result array is made before the interpreter is released: this also loads
        // numpy's API, which must not be first loaded while a KeyboardInterrupt is
        // pending.
        let out = PyArray2::<i32>::zeros(py, [n, p], false);
        {
            let mut rw = out.readwrite();
            let scores = rw
                .as_slice_mut()
                .map_err(|e| invalid_argument(format!("scores: {e}")))?;
            let watch = SignalWatch::new();
            py.detach(|| {
                let mut legal = Vec::new();
                let mut last = Instant::now();
                let mut go_on = || watch.poll(&mut last);
                'games: for (g, row) in scores.chunks_mut(p.max(1)).enumerate().take(n) {
                    let mut c = config.clone();
                    c.seed = seed.wrapping_add(g as u64);
                    let mut game = Game::new(c).expect("validated configuration");
                    let mut rng = Rng::new(c_seed(seed, g));
                    while !game.is_terminal() {
                        game.legal_actions_into(&mut legal);
                        let bot = kinds[game.to_play()];
                        let Some(a) = bot.choose_while(&game, &legal, &mut rng, &mut go_on) else {
                            break 'games;
                        };
                        if !go_on() {
                            break 'games;
                        }
                        game.apply_unchecked(a);
                    }
                    row.copy_from_slice(game.scores());
                }
            });
            watch.into_result()?;
        }
        Ok(out)
    }

    /// The canonical spec of a built-in player (`random`, `greedy`,
    /// `mcts:<budget>[:<option>=<value>]...`); `InvalidArgumentError` saying what is wrong
    /// for anything else.
    #[pyfunction]
    fn bot_spec(spec: &str) -> PyResult<String> {
        Bot::parse(spec)
            .map(|b| b.to_string())
            .map_err(|m| invalid_argument(format!("spec: {m}")))
    }

    /// Plays a match natively (`carcassonne_session::matches`): games `first_game ..
    /// first_game + games` between `bots` (one spec per seat), seats rotated by `g`, deal
    /// `g` of seed `seed + g / P`, on `threads` threads, with the interpreter released
    /// (Ctrl-C stops every thread within 20 ms, also during a search:
    /// `KeyboardInterrupt`). With `out`, every game is written into the dataset
    /// directory `out` (a part every `part_games` games; games already there are not
    /// played again; Ctrl-C writes the games finished first). Returns a dict: `bots`
    /// (the specs), `game` uint64 [G] (the index of each game played), `seeds` uint64
    /// [G], `seating` int32 [G, P] (the player at each seat), `scores` int32 [G, P] (per
    /// seat), `decisions` int32 [G, P], `think_seconds` float64 [G, P], `summaries` (one
    /// dict per player), `text`, `elapsed`, and with `out` `written` and `present`.
    #[pyfunction]
    #[pyo3(signature = (bots, games=Int(100), seed=None, players=None, sets=None, edition=None, rules=None, figures=None, threads=Int(1), first_game=Int(0), out=None, part_games=Int(256)), text_signature = "(bots, games=100, seed=0, players=None, sets=None, edition=None, rules=None, figures=None, threads=1, first_game=0, out=None, part_games=256)")]
    #[allow(clippy::too_many_arguments)]
    fn play_match<'py>(
        py: Python<'py>,
        bots: Vec<String>,
        games: Int,
        seed: Option<&Bound<'py, PyAny>>,
        players: Option<&Bound<'py, PyAny>>,
        sets: Option<&Bound<'py, PyAny>>,
        edition: Option<&Bound<'py, PyAny>>,
        rules: Option<&Bound<'py, PyAny>>,
        figures: Option<&Bound<'py, PyAny>>,
        threads: Int,
        first_game: Int,
        out: Option<std::path::PathBuf>,
        part_games: Int,
    ) -> PyResult<Bound<'py, PyDict>> {
        use carcassonne_session::matches::{write_match, MatchWriteError};
        let spec = match_spec(
            py, bots, games, seed, players, sets, edition, rules, figures, threads, first_game,
        )?;
        let part_games =
            crate::convert::arg_in_range("part_games", part_games, 1, 1_000_000)? as usize;
        let players = spec.config.players as usize;
        spec.validate().map_err(invalid_config)?;
        let watch = SignalWatch::new();
        let result = py.detach(|| {
            let mut last = Instant::now();
            let mut go_on = || watch.poll(&mut last);
            match &out {
                None => run_match_until(&spec, &|_, _| {}, &mut go_on)
                    .map(|r| (r, None))
                    .map_err(MatchWriteError::Spec),
                Some(dir) => {
                    let mut writer = carcassonne_session::dataset::DatasetWriter::open(dir)
                        .map_err(MatchWriteError::Dataset)?;
                    writer.games_per_part = part_games;
                    write_match(&spec, &mut writer, &|_, _| {}, &mut go_on)
                        .map(|d| (d.report, Some((d.written, d.present))))
                }
            }
        });
        watch.into_result()?;
        let (report, written) = match result {
            Ok(r) => r,
            Err(MatchWriteError::Spec(m)) => return Err(invalid_config(m)),
            Err(MatchWriteError::Dataset(e)) => return Err(invalid_argument(e.to_string())),
            Err(e) => return Err(crate::errors::state_error(e.to_string())),
        };
        let n = report.games.len();
        let indices: Vec<u64> = report.games.iter().map(|g| g.game).collect();
        let mut seeds = Vec::with_capacity(n);
        let mut seating = Array2::<i32>::zeros((n, players));
        let mut scores = Array2::<i32>::zeros((n, players));
        let mut decisions = Array2::<i32>::zeros((n, players));
        let mut think = Array2::<f64>::zeros((n, players));
        for (g, game) in report.games.iter().enumerate() {
            seeds.push(game.seed);
            for seat in 0..players {
                seating[[g, seat]] = game.seating[seat] as i32;
                scores[[g, seat]] = game.scores[seat];
                decisions[[g, seat]] = game.decisions[seat] as i32;
                think[[g, seat]] = game.think[seat].as_secs_f64();
            }
        }
        let summaries = summaries_list(py, &report.summaries())?;
        let out = PyDict::new(py);
        out.set_item(
            "bots",
            spec.bots.iter().map(|b| b.to_string()).collect::<Vec<_>>(),
        )?;
        out.set_item("game", indices.into_pyarray(py))?;
        out.set_item("seeds", seeds.into_pyarray(py))?;
        if let Some((written, present)) = written {
            out.set_item("written", written)?;
            out.set_item("present", present)?;
        }
        out.set_item("seating", seating.into_pyarray(py))?;
        out.set_item("scores", scores.into_pyarray(py))?;
        out.set_item("decisions", decisions.into_pyarray(py))?;
        out.set_item("think_seconds", think.into_pyarray(py))?;
        out.set_item("summaries", summaries)?;
        out.set_item("text", report.to_text())?;
        out.set_item("elapsed", report.elapsed.as_secs_f64())?;
        Ok(out)
    }

    /// The validated spec of a match from `play_match`'s arguments.
    #[allow(clippy::too_many_arguments)]
    fn match_spec<'py>(
        py: Python<'py>,
        bots: Vec<String>,
        games: Int,
        seed: Option<&Bound<'py, PyAny>>,
        players: Option<&Bound<'py, PyAny>>,
        sets: Option<&Bound<'py, PyAny>>,
        edition: Option<&Bound<'py, PyAny>>,
        rules: Option<&Bound<'py, PyAny>>,
        figures: Option<&Bound<'py, PyAny>>,
        threads: Int,
        first_game: Int,
    ) -> PyResult<MatchSpec> {
        let parsed: Vec<Bot> = bots
            .iter()
            .map(|b| Bot::parse(b).map_err(|m| invalid_config(format!("bots: {m}"))))
            .collect::<PyResult<_>>()?;
        let count = (parsed.len() as i64).into_pyobject(py)?.into_any();
        let zero = 0u64.into_pyobject(py)?.into_any();
        let config = crate::convert::config_from_args(crate::convert::ConfigArgs {
            players: Some(players.unwrap_or(&count)),
            sets,
            edition,
            rules,
            figures,
            seed: Some(seed.unwrap_or(&zero)),
            start: None,
        })?;
        let games = u32::try_from(games.0)
            .map_err(|_| invalid_config(format!("games: {} is out of range", games.0)))?;
        let threads = usize::try_from(threads.0)
            .map_err(|_| invalid_config(format!("threads: {} is out of range", threads.0)))?;
        let first_game = u64::try_from(first_game.0)
            .ok()
            .filter(|g| *g <= MatchSpec::MAX_FIRST_GAME)
            .ok_or_else(|| {
                invalid_config(format!(
                    "first_game: {} is not from 0 to {}",
                    first_game.0,
                    MatchSpec::MAX_FIRST_GAME
                ))
            })?;
        let spec = MatchSpec {
            config,
            bots: parsed,
            games,
            first_game,
            threads,
        };
        spec.validate().map_err(invalid_config)?;
        Ok(spec)
    }

    /// The dataset ids of games `first_game .. first_game + games` of the match that
    /// `play_match` plays with the same arguments (`match-<seed>-<g>-<hash>`,
    /// `carcassonne_session::matches::match_game_id`): the ids under which
    /// `play_match(out=)` writes them. Bad arguments raise as for `play_match`.
    #[pyfunction]
    #[pyo3(signature = (bots, games=Int(100), seed=None, players=None, sets=None, edition=None, rules=None, figures=None, first_game=Int(0)), text_signature = "(bots, games=100, seed=0, players=None, sets=None, edition=None, rules=None, figures=None, first_game=0)")]
    #[allow(clippy::too_many_arguments)]
    fn match_game_ids<'py>(
        py: Python<'py>,
        bots: Vec<String>,
        games: Int,
        seed: Option<&Bound<'py, PyAny>>,
        players: Option<&Bound<'py, PyAny>>,
        sets: Option<&Bound<'py, PyAny>>,
        edition: Option<&Bound<'py, PyAny>>,
        rules: Option<&Bound<'py, PyAny>>,
        figures: Option<&Bound<'py, PyAny>>,
        first_game: Int,
    ) -> PyResult<Vec<String>> {
        use carcassonne_session::matches::match_game_id;
        let spec = match_spec(
            py,
            bots,
            games,
            seed,
            players,
            sets,
            edition,
            rules,
            figures,
            Int(1),
            first_game,
        )?;
        Ok(spec
            .game_indices()
            .map(|g| match_game_id(&spec, g))
            .collect())
    }

    /// The summaries of a match as Python dicts (see `play_match`).
    fn summaries_list<'py>(
        py: Python<'py>,
        summaries: &[carcassonne_session::matches::PlayerSummary],
    ) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for s in summaries {
            let d = PyDict::new(py);
            d.set_item("bot", s.bot.to_string())?;
            d.set_item("games", s.games)?;
            d.set_item("wins", s.wins)?;
            d.set_item("win_rate", s.win_rate)?;
            d.set_item("interval", s.interval)?;
            d.set_item("mean_score", s.mean_score)?;
            d.set_item("mean_margin", s.mean_margin)?;
            d.set_item("ms_per_decision", s.ms_per_decision)?;
            d.set_item(
                "seat_games",
                s.per_seat.iter().map(|r| r.games).collect::<Vec<_>>(),
            )?;
            d.set_item(
                "seat_wins",
                s.per_seat.iter().map(|r| r.wins).collect::<Vec<_>>(),
            )?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// A 2-D array argument of shape `[rows, cols]` (any array-like numpy converts to
    /// `T`), row by row; an `InvalidArgumentError` naming `name` otherwise.
    fn table<'py, T: numpy::Element + Copy + pyo3::conversion::FromPyObjectOwned<'py> + 'py>(
        name: &str,
        value: &Bound<'py, PyAny>,
        rows: Option<usize>,
        cols: usize,
    ) -> PyResult<Vec<Vec<T>>> {
        let array: numpy::PyArrayLike2<'py, T, numpy::AllowTypeChange> =
            value.extract().map_err(|e: PyErr| {
                invalid_argument(format!(
                    "{name}: expected a 2-D array of numbers [games, players]: {e}"
                ))
            })?;
        let view = array.as_array();
        let (r, c) = view.dim();
        if c != cols || rows.is_some_and(|n| n != r) {
            let want = rows.map_or("games".to_string(), |n| n.to_string());
            return Err(invalid_argument(format!(
                "{name}: shape ({r}, {c}); expected ({want}, {cols}): a row per game, a column per seat"
            )));
        }
        Ok(view.outer_iter().map(|row| row.to_vec()).collect())
    }

    /// The summaries and the text table of a match's games from its arrays (as
    /// `play_match` returns them, or concatenated from ranges of one match): `bots` one
    /// spec per player, `seating`, `scores`, `decisions` [G, P] integers and
    /// `think_seconds` [G, P] (per seat), `game` [G] (the games' indices, used in error
    /// messages only). Computed as `carcassonne match` computes them. Returns
    /// `{"summaries", "text"}`. An array of another shape, a player out of range or
    /// seated twice in a game, a negative count or time: `InvalidArgumentError` naming
    /// the argument.
    #[pyfunction]
    #[pyo3(signature = (bots, seating, scores, decisions, think_seconds, game=None))]
    fn match_summary<'py>(
        py: Python<'py>,
        bots: Vec<String>,
        seating: &Bound<'py, PyAny>,
        scores: &Bound<'py, PyAny>,
        decisions: &Bound<'py, PyAny>,
        think_seconds: &Bound<'py, PyAny>,
        game: Option<Vec<u64>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        use carcassonne_session::matches::{summary_text, try_summarize, GameResult};
        use std::time::Duration;
        let parsed: Vec<Bot> = bots
            .iter()
            .map(|b| Bot::parse(b).map_err(|m| invalid_argument(format!("bots: {m}"))))
            .collect::<PyResult<_>>()?;
        let p = parsed.len();
        if p == 0 {
            return Err(invalid_argument("bots: no players"));
        }
        let seating: Vec<Vec<i64>> = table("seating", seating, None, p)?;
        let n = seating.len();
        let scores: Vec<Vec<i64>> = table("scores", scores, Some(n), p)?;
        let decisions: Vec<Vec<i64>> = table("decisions", decisions, Some(n), p)?;
        let think: Vec<Vec<f64>> = table("think_seconds", think_seconds, Some(n), p)?;
        let indices = match game {
            Some(g) if g.len() != n => {
                return Err(invalid_argument(format!(
                    "game: {} indices for {n} games",
                    g.len()
                )))
            }
            Some(g) => g,
            None => (0..n as u64).collect(),
        };
        let mut games = Vec::with_capacity(n);
        for i in 0..n {
            let g = indices[i];
            let at = |name: &str, seat: usize, what: &str| {
                invalid_argument(format!("{name}: game {g} (row {i}), seat {seat}: {what}"))
            };
            let mut result = GameResult {
                game: g,
                seed: 0,
                seating: Vec::with_capacity(p),
                scores: Vec::with_capacity(p),
                decisions: Vec::with_capacity(p),
                think: Vec::with_capacity(p),
            };
            for seat in 0..p {
                let b = seating[i][seat];
                result
                    .seating
                    .push(usize::try_from(b).ok().filter(|b| *b < p).ok_or_else(|| {
                        at(
                            "seating",
                            seat,
                            &format!("player {b} is not from 0 to {}", p - 1),
                        )
                    })?);
                let s = scores[i][seat];
                result.scores.push(
                    i32::try_from(s)
                        .map_err(|_| at("scores", seat, &format!("{s} is out of range")))?,
                );
                let d = decisions[i][seat];
                result.decisions.push(u32::try_from(d).map_err(|_| {
                    at(
                        "decisions",
                        seat,
                        &format!("{d} is not from 0 to {}", u32::MAX),
                    )
                })?);
                let t = think[i][seat];
                result
                    .think
                    .push(Duration::try_from_secs_f64(t).map_err(|_| {
                        at(
                            "think_seconds",
                            seat,
                            &format!("{t} is not a time in seconds"),
                        )
                    })?);
            }
            games.push(result);
        }
        let summaries = try_summarize(&parsed, &games).map_err(invalid_argument)?;
        let out = PyDict::new(py);
        out.set_item("summaries", summaries_list(py, &summaries)?)?;
        out.set_item("text", summary_text(&summaries))?;
        Ok(out)
    }

    fn c_seed(seed: u64, game: usize) -> u64 {
        seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (game as u64).wrapping_add(0x2545_f491)
    }
}
