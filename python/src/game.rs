//! `carcassonne._core.Game`: one game with its structured API (legal actions as tuples,
//! records, rendering, inspection) and its flat API (observations, masks, flat ids).
//! The Python class `carcassonne.Game` wraps it with readable action objects.

use crate::convert::{
    action_from_py, action_to_py, config_from_args, config_to_py, slice_mut, writable, ConfigArgs,
    Int, Seed,
};
use crate::errors::{
    concurrent_use_error, illegal, invalid_argument, invalid_config, invalid_record, state_error,
};
use crate::signals::SignalWatch;
use carcassonne::config::Figures;
use carcassonne::game::{ActionError, Event};
use carcassonne::names::Named;
use carcassonne::{Action, ChanceMode, Game as CoreGame, Phase, Rng};
use carcassonne_session::bots::Bot;
use carcassonne_session::encode::{
    self, EncoderSpec, FlatDecision, Layout, LayoutBlock, Preset, RewardMode,
};
use carcassonne_session::json::echo;
use carcassonne_session::options;
use carcassonne_session::record;
use carcassonne_session::render;
use carcassonne_session::session::Session;
use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::time::Instant;

/// A window spec from a Python argument ([`options::window_of`]).
pub fn spec_from(window: i64) -> PyResult<EncoderSpec> {
    options::window_of(window).map_err(|e| invalid_config(e.to_string()))
}

/// The observation layout of `preset` (`full`, `in-play`, `compact`) for games of
/// `config` seen through the window of `spec`.
pub fn layout_from(
    spec: EncoderSpec,
    preset: &str,
    config: &carcassonne::GameConfig,
) -> PyResult<std::sync::Arc<Layout>> {
    let preset = options::preset_named(preset).map_err(|e| invalid_config(e.to_string()))?;
    Ok(std::sync::Arc::new(Layout::new(spec, preset, config)))
}

/// `session` speaking observation preset `preset` (its window and game kept).
pub fn with_preset(mut session: Session, preset: &str) -> PyResult<Session> {
    let layout = layout_from(session.spec(), preset, session.game().config())?;
    session
        .set_layout(layout)
        .map_err(|_| invalid_argument("preset: the layout's window differs from the game's"))?;
    Ok(session)
}

/// The sizes and names of a layout, as `carcassonne.encoder_info` returns them.
pub fn info_dict<'py>(py: Python<'py>, layout: &Layout) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("layout_version", encode::layout_version_hex())?;
    d.set_item("window", layout.window())?;
    d.set_item("preset", layout.preset().name())?;
    d.set_item("num_planes", layout.num_planes())?;
    d.set_item("num_globals", layout.num_globals())?;
    d.set_item("num_actions", layout.num_actions())?;
    let blocks = layout.action_blocks();
    let first = |name: &str| blocks.iter().find(|b| b.0 == name).map(|b| b.1);
    d.set_item("cell_base", first("cell"))?;
    d.set_item("slot_base", first("slot"))?;
    d.set_item("corner_base", first("corner"))?;
    d.set_item("pass_id", first("pass"))?;
    // The sides of the layout's SLOT block (18 × 16 in the full encoding).
    let (slots, channels) = match layout.id_blocks().iter().find(|b| b.name == "slot") {
        Some(b) => (b.kept[0].len(), b.kept[1].len()),
        None => (0, 0),
    };
    d.set_item("num_slots", slots)?;
    d.set_item("num_channels", channels)?;
    d.set_item(
        "plane_names",
        layout
            .planes()
            .iter()
            .map(|p| p.name.clone())
            .collect::<Vec<_>>(),
    )?;
    d.set_item(
        "global_blocks",
        layout
            .global_blocks()
            .iter()
            .map(|b| (b.name, b.start, b.sources.len()))
            .collect::<Vec<_>>(),
    )?;
    d.set_item("action_blocks", blocks)?;
    let described = |list: &[LayoutBlock]| -> PyResult<Vec<Bound<'py, PyDict>>> {
        list.iter()
            .map(|b| {
                let e = PyDict::new(py);
                e.set_item("name", b.name)?;
                e.set_item("start", b.start)?;
                e.set_item("shape", b.shape())?;
                e.set_item(
                    "indices",
                    b.dims.iter().map(|d| d.name()).collect::<Vec<_>>(),
                )?;
                e.set_item(
                    "labels",
                    (0..b.dims.len()).map(|k| b.labels(k)).collect::<Vec<_>>(),
                )?;
                Ok(e)
            })
            .collect()
    };
    d.set_item("global_layout", described(layout.global_blocks())?)?;
    d.set_item("action_layout", described(layout.id_blocks())?)?;
    Ok(d)
}

/// A reward mode from its name.
pub fn reward_from(name: &str) -> PyResult<RewardMode> {
    RewardMode::from_name(name).ok_or_else(|| {
        invalid_config(format!(
            "reward: unknown mode {} ({})",
            echo(name),
            RewardMode::names()
        ))
    })
}

/// A score event for Python: `(player, points, kind, (x, y, feature) | None)`.
type ScoreEventTuple = (u8, i32, &'static str, Option<(i32, i32, u8)>);

/// The chance mode named `name`, or an error naming the field ([`options::chance_named`]).
pub fn chance_from(name: &str) -> PyResult<ChanceMode> {
    options::chance_named(name).map_err(|e| invalid_config(e.to_string()))
}

/// Loads a record and resumes it (`record::load`, `Session::resume`) with the
/// interpreter released: the saved generator state, chance mode, window and pending focus,
/// unless `chance` or `spec` override them.
pub fn session_from_record(
    py: Python<'_>,
    text: &str,
    spec: Option<EncoderSpec>,
    chance: Option<ChanceMode>,
) -> PyResult<Session> {
    py.detach(|| {
        let loaded = record::load_json(text, chance).map_err(|e| e.to_string())?;
        Session::resume(loaded, spec).map_err(|e| e.to_string())
    })
    .map_err(invalid_record)
}

/// One event as a dict (see `PyGame::events`).
fn event_to_py<'py>(
    py: Python<'py>,
    game: &CoreGame,
    scored: &mut carcassonne::game::ScoredParts<'_>,
    turn: Option<usize>,
    event: Event<'_>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("turn", turn)?;
    let kind_at =
        |pos: carcassonne::Pos, local: u8| game.feature_kind_at(pos, local).map(|k| k.name());
    match event {
        Event::Score(e) => {
            d.set_item("type", "score")?;
            d.set_item("player", e.player)?;
            d.set_item("points", e.points)?;
            d.set_item("what", e.kind.name())?;
            d.set_item("at", e.at.map(|(p, f)| (p.x, p.y, f)))?;
            d.set_item("feature", e.at.and_then(|(p, f)| kind_at(p, f)))?;
            let parts: Vec<(i32, i32, u8)> = e
                .feature
                .map(|f| scored.parts(f))
                .unwrap_or_default()
                .into_iter()
                .map(|(p, f)| (p.x, p.y, f))
                .collect();
            d.set_item("parts", parts)?;
        }
        Event::FigureReturned(r) => {
            d.set_item("type", "figure-returned")?;
            d.set_item("player", r.owner)?;
            d.set_item("figure", r.figure.name())?;
            d.set_item("at", (r.pos.x, r.pos.y, r.local))?;
            d.set_item("feature", kind_at(r.pos, r.local))?;
            d.set_item("cause", r.cause.name())?;
        }
    }
    Ok(d)
}

fn action_error(e: ActionError) -> PyErr {
    illegal(e.to_string())
}

/// One game of Carcassonne.
#[pyclass(module = "carcassonne._core", name = "Game")]
pub struct PyGame {
    session: Session,
}

impl PyGame {
    /// Wraps a session (a game played through flat ids).
    pub fn from_session(session: Session) -> PyGame {
        PyGame { session }
    }

    fn game(&self) -> &CoreGame {
        self.session.game()
    }

    fn seat(&self, player: i64) -> PyResult<usize> {
        let n = self.game().num_players();
        usize::try_from(player)
            .ok()
            .filter(|p| *p < n)
            .ok_or_else(|| invalid_argument(format!("player {player}: the game has seats 0..{n}")))
    }

    fn spec(&self) -> EncoderSpec {
        self.session.spec()
    }

    /// The game, for a call that reads it. A call that changes the game borrows it only
    /// after every Python value it was given is read, and for no longer than the change:
    /// `ConcurrentUseError` only when such a value's own Python code (an `__index__`)
    /// changes the game.
    fn reading<'py>(slf: &Bound<'py, Self>) -> PyResult<PyRef<'py, Self>> {
        slf.try_borrow().map_err(|_| concurrent_use())
    }

    /// The game, for a call that changes it; `ConcurrentUseError` while another call
    /// reads it from Python code of its own.
    fn changing<'py>(slf: &Bound<'py, Self>) -> PyResult<PyRefMut<'py, Self>> {
        slf.try_borrow_mut().map_err(|_| concurrent_use())
    }

    /// The structured action `action` of this game, read while no change of the game runs.
    fn action_of(slf: &Bound<'_, Self>, action: &Bound<'_, PyAny>) -> PyResult<Action> {
        let this = Self::reading(slf)?;
        action_from_py(this.game(), action)
    }
}

/// The error of a call that would change a game while another call uses it.
fn concurrent_use() -> PyErr {
    concurrent_use_error(
        "Game: the game is in use by another call that is reading it (Python code run by \
         that call, such as an __index__ method, tried to change it); change it once that \
         call has returned",
    )
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (players=None, sets=None, edition=None, rules=None, figures=None, seed=None, chance="sampled", window=Int(32), start=None, preset="full"), text_signature = "(players=None, sets=None, edition=None, rules=None, figures=None, seed=None, chance='sampled', window=32, start=None, preset='full')")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        players: Option<&Bound<'_, PyAny>>,
        sets: Option<&Bound<'_, PyAny>>,
        edition: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyAny>>,
        figures: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        chance: &str,
        window: Int,
        start: Option<&Bound<'_, PyAny>>,
        preset: &str,
    ) -> PyResult<PyGame> {
        let config = config_from_args(ConfigArgs {
            players,
            sets,
            edition,
            rules,
            figures,
            seed,
            start,
        })?;
        let mode = chance_from(chance)?;
        let spec = spec_from(window.0)?;
        let layout = layout_from(spec, preset, &config)?;
        let game = CoreGame::with_chance(config, mode)
            .map_err(|e| invalid_config(format!("{}: {}", e.field, e.message)))?;
        Ok(PyGame {
            session: Session::with_layout(game, layout),
        })
    }

    /// A game replayed from a record (one JSON object, `docs/record-format.md`); the
    /// record's draws are followed and its scores checked, then what its `resume` object
    /// saved is restored: the generator state (a sampled game goes on with the same draws),
    /// the chance mode, the window and a pending focus. `window` and `chance` override
    /// them. Read strictly and within the record limits (4 MiB, 4096 turns), with the
    /// interpreter released.
    #[staticmethod]
    #[pyo3(signature = (text, window=None, chance=None, preset="full"), text_signature = "(text, window=None, chance=None, preset='full')")]
    fn from_record(
        py: Python<'_>,
        text: &str,
        window: Option<Int>,
        chance: Option<&str>,
        preset: &str,
    ) -> PyResult<PyGame> {
        let spec = window.map(|w| spec_from(w.0)).transpose()?;
        let chance = chance.map(chance_from).transpose()?;
        let session = session_from_record(py, text, spec, chance)?;
        Ok(PyGame {
            session: with_preset(session, preset)?,
        })
    }

    /// The record of the game so far as one line of JSON, with what resumes it exactly
    /// (`resume`: generator state, chance mode, window, pending focus). An `id` that would
    /// make the record longer than `from_record` reads (4 MiB) is an
    /// `InvalidArgumentError`.
    #[pyo3(signature = (id="game"))]
    fn to_record(&self, id: &str) -> PyResult<String> {
        self.session
            .record_json(id)
            .map_err(|e| invalid_argument(e.to_string()))
    }

    /// Pickling: the game is rebuilt from its record (`from_record`) and observation
    /// preset, exactly.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, &'static str))> {
        let restore = py
            .import("carcassonne._core")?
            .getattr("_game_from_record")?;
        Ok((
            restore,
            (
                self.session
                    .record_json("pickled")
                    .map_err(|e| invalid_argument(e.to_string()))?,
                self.preset(),
            ),
        ))
    }

    /// An independent copy (including a pending focus tile).
    fn clone(&self) -> PyGame {
        PyGame {
            session: self.session.clone(),
        }
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    /// The configuration as a dict (the record's `setup` object).
    #[getter]
    fn config<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        config_to_py(py, self.game().config())
    }

    #[getter]
    fn num_players(&self) -> usize {
        self.game().num_players()
    }

    #[getter]
    fn window(&self) -> u16 {
        self.spec().window
    }

    /// The observation preset: `full`, `in-play` or `compact`.
    #[getter]
    fn preset(&self) -> &'static str {
        self.session
            .layout()
            .map_or(Preset::Full.name(), |l| l.preset().name())
    }

    /// Sizes, plane names, global blocks and action blocks of this game's observations
    /// and flat ids (as `carcassonne.encoder_info`).
    fn encoder_info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let layout = match self.session.layout() {
            Some(l) => l.clone(),
            None => {
                std::sync::Arc::new(Layout::new(self.spec(), Preset::Full, self.game().config()))
            }
        };
        info_dict(py, &layout)
    }

    /// The decision the game waits for, by name (one of `phase_names()`).
    #[getter]
    fn phase(&self) -> &'static str {
        self.game().phase().name()
    }

    #[getter]
    fn is_terminal(&self) -> bool {
        self.game().is_terminal()
    }

    /// The seat that decides now; `None` when the game is over or waits for a draw.
    #[getter]
    fn to_play(&self) -> Option<usize> {
        match self.game().phase() {
            Phase::GameOver => None,
            phase if phase.is_chance() => None,
            _ => Some(self.game().to_play()),
        }
    }

    #[getter]
    fn turn_player(&self) -> usize {
        self.game().turn_player()
    }

    #[getter]
    fn scores(&self) -> Vec<i32> {
        self.game().scores().to_vec()
    }

    /// Each seat's score if the game ended now: the points so far plus the final
    /// scoring of what is on the board (incomplete features, farmers, ...); the points of
    /// a turn still in progress are not in it. The game is unchanged.
    fn scores_if_ended_now(&self) -> Vec<i32> {
        self.game().scores_if_ended_now()
    }

    #[getter]
    fn tiles_left(&self) -> u32 {
        self.game().tiles_left()
    }

    #[getter]
    fn tile_in_hand(&self) -> Option<&'static str> {
        self.game().tile_in_hand().map(|t| t.id())
    }

    /// The visible state of the expansions in play: per table (`count`,
    /// `quarter_figures`, `castles`, `bridges`, `bazaar`, `king`, `dragon`, `fairy`, ...),
    /// its row, its row or `None`, or its list of rows, each a dict of column to value
    /// (`None` when absent). `state_schema()` describes every table.
    fn expansion_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        crate::convert::expansion_state_to_py(py, self.game())
    }

    /// `sampled` or `explicit`.
    #[getter]
    fn chance(&self) -> &'static str {
        match self.game().chance_mode() {
            ChanceMode::Sampled => "sampled",
            ChanceMode::Explicit => "explicit",
        }
    }

    /// The focus tile picked by a flat `CELL` id, waiting for its `SLOT` id.
    #[getter]
    fn pending_focus(&self) -> Option<(i32, i32)> {
        self.session.pending_focus().map(|p| (p.x, p.y))
    }

    /// Takes back the `CELL` id of a pending focus (the game never changed); whether
    /// one was pending.
    fn cancel_focus(slf: &Bound<'_, Self>) -> PyResult<bool> {
        Ok(Self::changing(slf)?.session.cancel_focus())
    }

    /// The tile placed last: `(x, y, tile_id, rot)`; before any placement the last start
    /// tile (`BASE-D`, the spring, or with the Count `COUNT-12`, or the spring with the
    /// Count and a River).
    #[getter]
    fn last_placed(&self) -> (i32, i32, &'static str, u8) {
        let p = self
            .game()
            .board()
            .placements()
            .last()
            .expect("the start tile is always on the board");
        (p.pos.x, p.pos.y, p.kind.id(), p.rot.quarter_turns())
    }

    /// The number of events so far (scores and figures returned).
    #[getter]
    fn event_count(&self) -> usize {
        self.game().events().len() + self.game().figure_returns().len()
    }

    /// The events numbered `since` and later, in the order they happened: dicts with
    /// `type` (`score` or `figure-returned`), `turn` (`None` for final scoring),
    /// `player`, `at` (`(x, y, feature)`) and `feature` (its kind); a score has
    /// `points`, `what` and `parts` (every `(x, y, feature)` of the scored feature as it
    /// was then); a figure returned has `figure` and `cause`.
    #[pyo3(signature = (since=Int(0)), text_signature = "($self, since=0)")]
    fn events<'py>(&self, py: Python<'py>, since: Int) -> PyResult<Bound<'py, PyList>> {
        let g = self.game();
        let count = g.events().len() + g.figure_returns().len();
        let since = usize::try_from(since.0)
            .ok()
            .filter(|s| *s <= count)
            .ok_or_else(|| invalid_argument(format!("since: {} is not in 0..={count}", since.0)))?;
        let list = PyList::empty(py);
        let mut scored = g.scored_parts();
        let all = (0..g.turns().len())
            .flat_map(|t| g.turn_events(t).map(move |e| (Some(t), e)))
            .chain(g.final_events().map(|e| (None, e)));
        for (turn, e) in all.skip(since) {
            list.append(event_to_py(py, g, &mut scored, turn, e)?)?;
        }
        Ok(list)
    }

    /// The count of `figure` in `player`'s supply: a figure, or tiles held (the keys of
    /// `supplies()`).
    fn supply(&self, player: Int, figure: &str) -> PyResult<u8> {
        let p = self.seat(player.0)?;
        self.game().held(p).count(figure).ok_or_else(|| {
            invalid_argument(format!(
                "unknown figure {} ({})",
                echo(figure),
                Figures::KEYS.join(", ")
            ))
        })
    }

    /// Every player's supply: a dict per seat, figure name → count, then the tiles held.
    fn supplies<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for p in 0..self.game().num_players() {
            let d = PyDict::new(py);
            for (key, count) in Figures::KEYS.iter().zip(self.game().held(p).counts()) {
                d.set_item(*key, count)?;
            }
            list.append(d)?;
        }
        Ok(list)
    }

    /// Placed tiles in placement order: `(x, y, tile_id, rot)`.
    fn board(&self) -> Vec<(i32, i32, &'static str, u8)> {
        self.game()
            .board()
            .placements()
            .iter()
            .map(|p| (p.pos.x, p.pos.y, p.kind.id(), p.rot.quarter_turns()))
            .collect()
    }

    /// Figures on the board: `(owner, figure, x, y, feature)`; for a barn, `feature` is
    /// the corner index (0 NW, 1 NE, 2 SE, 3 SW).
    fn figures(&self) -> Vec<(u8, &'static str, i32, i32, u8)> {
        let b = self.game().board();
        self.game()
            .board_figures()
            .iter()
            .map(|f| {
                let pos = b.placement(f.placement as usize).pos;
                (f.owner, f.figure.name(), pos.x, pos.y, f.local)
            })
            .collect()
    }

    /// The catalogue id of local feature `feature` of the tile at `(x, y)`.
    fn feature_id(&self, x: Int, y: Int, feature: Int) -> PyResult<String> {
        let (x, y) = (
            x.0.clamp(i32::MIN as i64, i32::MAX as i64) as i32,
            y.0.clamp(i32::MIN as i64, i32::MAX as i64) as i32,
        );
        let feature = usize::try_from(feature.0).unwrap_or(usize::MAX);
        let p = self
            .game()
            .board()
            .at(carcassonne::Pos::new(x, y))
            .ok_or_else(|| invalid_argument(format!("no tile at ({x}, {y})")))?;
        p.kind
            .def()
            .features
            .get(feature)
            .map(|f| f.id.clone())
            .ok_or_else(|| {
                invalid_argument(format!("tile {} has no feature {feature}", p.kind.id()))
            })
    }

    /// Tiles left to draw per kind (kinds with none left are omitted).
    fn remaining_tiles(&self) -> Vec<(&'static str, u8)> {
        carcassonne::catalogue()
            .kinds()
            .zip(self.game().remaining_tiles())
            .filter(|(_, n)| **n > 0)
            .map(|(k, n)| (k.id(), *n))
            .collect()
    }

    /// Score events so far: `(player, points, kind, (x, y, feature) | None)`.
    fn score_events(&self) -> Vec<ScoreEventTuple> {
        self.game()
            .events()
            .iter()
            .map(|e| {
                (
                    e.player,
                    e.points,
                    e.kind.name(),
                    e.at.map(|(p, f)| (p.x, p.y, f)),
                )
            })
            .collect()
    }

    /// 64-bit hash of the state.
    fn state_hash(&self) -> u64 {
        self.game().state_hash()
    }

    /// Every legal structured action now, as tuples, in the engine's order.
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for a in self.game().legal_actions() {
            list.append(action_to_py(py, a)?)?;
        }
        Ok(list)
    }

    /// Whether the action (tuple form) is legal now.
    fn is_legal(slf: &Bound<'_, Self>, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        let this = Self::reading(slf)?;
        Ok(action_from_py(this.game(), action).is_ok_and(|a| this.game().is_legal(a)))
    }

    /// Applies a legal structured action; raises `IllegalActionError` otherwise (the
    /// game is unchanged).
    fn apply(slf: &Bound<'_, Self>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let a = Self::action_of(slf, action)?;
        Self::changing(slf)?.session.apply(a).map_err(action_error)
    }

    /// Draw outcomes `(tile_id, probability)` when the game waits for a draw in
    /// explicit-chance mode, `(token, probability)` when it waits for a token of the sheep
    /// bag (`draw_token`, HS1, HS2); else empty.
    fn chance_outcomes(&self) -> Vec<(&'static str, f64)> {
        if self.game().phase() == Phase::DrawToken {
            return self
                .game()
                .token_outcomes()
                .into_iter()
                .map(|(t, p)| (t.name(), p))
                .collect();
        }
        self.game()
            .chance_outcomes()
            .into_iter()
            .map(|(k, p)| (k.id(), p))
            .collect()
    }

    /// The action a built-in player picks now (`kind`: a player spec, `random`, `greedy`
    /// or `mcts:<budget>[:<option>=<value>]...`), drawing its random choices from `seed`.
    /// The interpreter is released while an MCTS player searches; Ctrl-C stops the search
    /// within 20 ms (`KeyboardInterrupt`), the game unchanged.
    #[pyo3(signature = (kind, seed=Seed(0)), text_signature = "($self, kind, seed=0)")]
    fn builtin_action<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        kind: &str,
        seed: Seed,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let player = Bot::parse(kind).map_err(|m| invalid_argument(format!("kind: {m}")))?;
        let this = Self::reading(slf)?;
        player
            .check(this.game().config())
            .map_err(|m| invalid_argument(format!("kind: {m}")))?;
        if this.game().is_terminal() {
            return Err(state_error("the game is over"));
        }
        if this.game().phase().is_chance() {
            return Err(state_error("the game waits for a chance outcome"));
        }
        let mut rng = Rng::new(seed.0);
        let action = match player {
            Bot::Mcts(_) => {
                // A copy searched without the game borrowed: other calls (other threads
                // while the interpreter is released) read and change the game meanwhile.
                let game = this.game().clone();
                drop(this);
                let watch = SignalWatch::new();
                let action = py.detach(|| {
                    let mut last = Instant::now();
                    player
                        .choose_while(&game, game.legal(), &mut rng, &mut || watch.poll(&mut last))
                });
                watch.into_result()?;
                action.ok_or_else(|| state_error("the search was stopped"))?
            }
            _ => player.choose(this.game(), this.game().legal(), &mut rng),
        };
        action_to_py(py, action)
    }

    /// The built-in tree search's view of the current decision (see
    /// `carcassonne.search`): a dict of `shares` float64 [L] and `visits` int64 [L] (per
    /// legal action, in `legal_actions()` order; shares sum to 1), `mean_rewards` float64
    /// [L] (NaN for an action never tried), `policy` float32 [A] (each flat id's share of
    /// the visits in the current step: sums to 1 over the mask, 0 elsewhere),
    /// `policy_coverage` (the share of the visits that went to actions with a flat id),
    /// `values` float64 [P] (each seat's mean reward in 0..1), `value` (the deciding
    /// seat's), `player`, `iterations`, `best` (the index of the most visited action) and
    /// `seconds`. `budget` is iterations (an int, or `"200"`) or a time (`"50ms"`); the
    /// same seed gives the same search with an iteration budget. Without `evaluator`
    /// leaves are played out at random (the `mcts` player; `c` its exploration constant);
    /// with one, `evaluator(batch)` is called with up to `batch` leaves (`board` uint8
    /// [k, C, W, W], `globals` float32 [k, G], `action_mask` int8 [k, A], for the deciding
    /// seat, in this game's preset) and returns `(priors [k, A], values)`, values [k] (the
    /// deciding seat's expected reward in 0..1) or [k, P] (by seat relative to it); the
    /// search selects by PUCT (`c` its constant, default 1.5). `margin` (0 to 1) weighs
    /// the smooth score margin `½ + ½·tanh(margin / 20)` against the outcome in the reward
    /// of a game finished inside the tree (playouts: default 1; with an evaluator: default
    /// 0, the scale of a value trained on outcomes). `playout` (0 to 1, with an evaluator
    /// only; default 0) weighs one random playout of each leaf against the evaluator's
    /// value, and `standing` (0 to 1, with an evaluator only; default 0) the standings if
    /// the game ended at the leaf (the deciding seat's turn settled by passing, then each
    /// seat's score with the final scoring, scored as `margin` says; mixed in before the
    /// playout); with `standing_end` (0 to 1) that weight moves linearly from `standing`
    /// (default 0) at the start of the game to `standing_end` at its end, with the share
    /// of the tiles placed. Raises `CarcassonneError` when the game is over or waits for a
    /// draw, `InvalidArgumentError` for a bad budget, batch, margin, playout, standing,
    /// standing_end or evaluator answer; an exception of the evaluator is raised as it is.
    #[allow(clippy::too_many_arguments)] // the keyword arguments of a Python method
    #[pyo3(signature = (budget, seed=Seed(0), evaluator=None, batch=Int(8), c=None, margin=None, playout=None, standing=None, standing_end=None), text_signature = "($self, budget, seed=0, evaluator=None, batch=8, c=None, margin=None, playout=None, standing=None, standing_end=None)")]
    fn search<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        budget: &Bound<'py, PyAny>,
        seed: Seed,
        evaluator: Option<Bound<'py, PyAny>>,
        batch: Int,
        c: Option<f64>,
        margin: Option<f64>,
        playout: Option<f64>,
        standing: Option<f64>,
        standing_end: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let budget = crate::search::budget_from(budget)?;
        let batch = u32::try_from(batch.0)
            .ok()
            .filter(|b| (1..=carcassonne_session::guided::GuidedSearch::MAX_BATCH).contains(b))
            .ok_or_else(|| {
                invalid_argument(format!(
                    "batch: {}; expected 1 to {}",
                    batch.0,
                    carcassonne_session::guided::GuidedSearch::MAX_BATCH
                ))
            })?;
        let tuning = crate::search::SearchTuning::parse(
            evaluator.as_ref(),
            c,
            margin,
            playout,
            standing,
            standing_end,
        )?;
        // The search runs on a copy: the game is not borrowed while it runs, so the
        // evaluator may read (or even change) it and other threads may search it too.
        let mut session = Self::reading(slf)?.session.clone();
        crate::search::search(
            py,
            &mut session,
            crate::search::SearchArgs {
                budget,
                seed: seed.0,
                evaluator,
                batch,
                tuning,
            },
        )
    }

    /// The board as text.
    fn render_text(&self) -> String {
        render::board_text(self.game())
    }

    /// The board as an SVG picture.
    fn render_svg(&self) -> String {
        render::board_svg(self.game())
    }

    fn __repr__(&self) -> String {
        let g = self.game();
        format!(
            "<Game players={} phase={} turn={} scores={:?} tiles_left={}>",
            g.num_players(),
            g.phase().name(),
            g.turns().len(),
            g.scores(),
            g.tiles_left()
        )
    }

    // ----- flat API ----------------------------------------------------------------------

    /// The window origin `(x, y)`: the board square of window cell `(0, 0)`.
    fn window_origin(slf: &Bound<'_, Self>) -> PyResult<(i32, i32)> {
        let o = Self::changing(slf)?.session.window_origin();
        Ok((o.x, o.y))
    }

    /// The observation of `player` (default: the player to play, else seat 0): a dict of
    /// `board` uint8 [C, W, W], `globals` float32 [G], `action_mask` int8 [A] (the mask
    /// of the current step, all zero unless `player` decides now). Arrays passed in are
    /// written in place and returned; missing ones are allocated.
    #[pyo3(signature = (player=None, board=None, globals=None, action_mask=None))]
    fn observation<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        player: Option<Int>,
        board: Option<&Bound<'py, PyAny>>,
        globals: Option<&Bound<'py, PyAny>>,
        action_mask: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let mut this = Self::changing(slf)?;
        let spec = this.spec();
        let seat = match player {
            Some(p) => this.seat(p.0)?,
            None => this.to_play().unwrap_or(0),
        };
        let w = spec.window as usize;
        let c = this.session.num_planes();
        let (g_len, a_len) = (this.session.num_globals(), this.session.num_actions());
        let board_obj = match board {
            Some(b) => b.clone(),
            None => Array3::<u8>::zeros((c, w, w)).into_pyarray(py).into_any(),
        };
        let globals_obj = match globals {
            Some(g) => g.clone(),
            None => PyArray1::<f32>::zeros(py, g_len, false).into_any(),
        };
        let mask_obj = match action_mask {
            Some(m) => m.clone(),
            None => PyArray1::<i8>::zeros(py, a_len, false).into_any(),
        };
        {
            let mut b = writable::<u8>(&board_obj, "board", "uint8", &[c, w, w])?;
            let mut g = writable::<f32>(&globals_obj, "globals", "float32", &[g_len])?;
            let mut m = writable::<i8>(&mask_obj, "action_mask", "int8", &[a_len])?;
            let (b, g, m) = (
                slice_mut(&mut b, "board")?,
                slice_mut(&mut g, "globals")?,
                slice_mut(&mut m, "action_mask")?,
            );
            this.session
                .observe(seat, b, g)
                .map_err(|e| invalid_argument(e.to_string()))?;
            let deciding = this.to_play() == Some(seat);
            if deciding {
                this.session
                    .legal_mask(m)
                    .map_err(|e| invalid_argument(e.to_string()))?;
            } else {
                m.fill(0);
            }
        }
        let d = PyDict::new(py);
        d.set_item("board", board_obj)?;
        d.set_item("globals", globals_obj)?;
        d.set_item("action_mask", mask_obj)?;
        Ok(d)
    }

    /// The mask of the current step, int8 [A].
    fn legal_mask<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
    ) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let mut this = Self::changing(slf)?;
        let mut m = vec![0i8; this.session.num_actions()];
        this.session
            .legal_mask(&mut m)
            .map_err(|e| invalid_argument(e.to_string()))?;
        Ok(m.into_pyarray(py))
    }

    /// `(legal, offered, outside_window)` for the current step: legal structured
    /// actions, ids offered by the mask, legal actions not offered because a square they
    /// need lies outside the window.
    fn mask_info(slf: &Bound<'_, Self>) -> PyResult<(u32, u32, u32)> {
        let mut this = Self::changing(slf)?;
        let mut m = vec![0i8; this.session.num_actions()];
        let info = this
            .session
            .legal_mask(&mut m)
            .map_err(|e| invalid_argument(e.to_string()))?;
        Ok((info.legal, info.offered, info.outside_window))
    }

    /// What flat id `id` does now: an action tuple, `("focus", x, y)` for a `CELL` id
    /// that picks the focus tile of a two-step decision, or `None` if it is not offered.
    fn decode_flat<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        id: Int,
    ) -> PyResult<Option<Bound<'py, PyTuple>>> {
        Self::changing(slf)?.decoded(py, id)
    }

    /// Takes flat id `id` (see `decode_flat`); returns what it did. Raises
    /// `IllegalActionError` if the mask does not offer it (nothing changes).
    fn step_flat<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        id: Int,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let mut this = Self::changing(slf)?;
        let decoded = this.decoded(py, id)?;
        let Some(decoded) = decoded else {
            return Err(match this.game().phase() {
                Phase::GameOver => illegal("the game is over"),
                phase if phase.is_chance() => {
                    illegal("the game waits for a chance outcome, not a flat id")
                }
                _ => illegal(format!("action id {} is not legal now", id.0)),
            });
        };
        this.session
            .step(id.0 as u32)
            .map_err(|e| illegal(e.to_string()))?;
        Ok(decoded)
    }

    /// The first flat id of a legal structured action (its `CELL` id for a two-step
    /// action), or `None` if it is not legal or lies outside the window.
    fn action_to_flat(slf: &Bound<'_, Self>, action: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
        let a = Self::action_of(slf, action)?;
        let mut this = Self::changing(slf)?;
        if this.session.pending_focus().is_some() {
            return Ok(None);
        }
        Ok(this.session.flat_path(a).map(|p| p.first))
    }

    /// `(first, second)` flat ids of a legal structured action (`second` is `None` for
    /// one-step actions), or `None`.
    fn action_to_flat_path(
        slf: &Bound<'_, Self>,
        action: &Bound<'_, PyAny>,
    ) -> PyResult<Option<(u32, Option<u32>)>> {
        let a = Self::action_of(slf, action)?;
        let mut this = Self::changing(slf)?;
        if this.session.pending_focus().is_some() {
            return Ok(None);
        }
        Ok(this.session.flat_path(a).map(|p| (p.first, p.second)))
    }

    /// The structured action that flat id `id` completes now in one step, or `None`.
    fn flat_to_action<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        id: Int,
    ) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let mut this = Self::changing(slf)?;
        let Ok(id) = u32::try_from(id.0) else {
            return Ok(None);
        };
        match this.session.decode(id) {
            Some(FlatDecision::Action(a)) => Ok(Some(action_to_py(py, a)?)),
            _ => Ok(None),
        }
    }
}

impl PyGame {
    /// What flat id `id` does now (see `decode_flat`).
    fn decoded<'py>(&mut self, py: Python<'py>, id: Int) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let Ok(id) = u32::try_from(id.0) else {
            return Ok(None);
        };
        match self.session.decode(id) {
            Some(FlatDecision::Action(a)) => Ok(Some(action_to_py(py, a)?)),
            Some(FlatDecision::Focus(p)) => Ok(Some(PyTuple::new(
                py,
                [
                    "focus".into_pyobject(py)?.into_any(),
                    p.x.into_pyobject(py)?.into_any(),
                    p.y.into_pyobject(py)?.into_any(),
                ],
            )?)),
            None => Ok(None),
        }
    }
}
