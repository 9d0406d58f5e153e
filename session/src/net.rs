//! Learned players: a policy-value network exported as ONNX
//! (`examples/expert_iteration.py --export`), run by a pure-Rust inference engine
//! (`tract-onnx`), with no Python at play time.
//!
//! A [`Network`] is loaded once (from bytes or a file; [`Network::shipped`] is the
//! network embedded in this crate, `nets/base-2p.onnx`) and optimised into three
//! runnable plans: one for a single row, one for a batch of [`PLANNED_BATCH`] rows (the
//! guided search's batches of leaves, fewer rows padded with zero rows) and one for any
//! number of rows; a plan whose batch is fixed lets the runtime optimise every operator
//! for that shape (the single-row plan takes half the time of the general one). Loading
//! checks what the file says of itself against this build: the metadata
//! ([`META_LAYOUT_VERSION`], [`META_PRESET`], [`META_WINDOW`], [`META_CONFIG`]) must be
//! present, the layout version must be this build's
//! ([`crate::encode::LAYOUT_VERSION`]), and the network's inputs and
//! outputs must have the sizes of the layout the metadata names (inputs `board` `u8
//! [batch, C, W, W]` and `globals` `f32 [batch, G]`, outputs `logits` `f32 [batch, A]`
//! and `value` `f32 [batch]`, a value logit: its sigmoid is the deciding seat's expected
//! outcome). [`Network::check_config`] and [`Network::check_layout`] refuse a game or a
//! layout the network was not made for, naming what differs ([`NetError::Mismatch`]).
//!
//! A decision ([`Network::choose`]) encodes the observation of the deciding seat and the
//! legal mask with the session's own encoder ([`Session::observe`],
//! [`Session::legal_mask`], in the network's layout), runs the network on that one row
//! and takes the legal id with the highest logit (a decision with one legal action
//! takes it without running the network; a two-step action, a `CELL` id then a
//! `SLOT` id, is taken in two passes; a decision whose legal actions all lie outside
//! the window takes the first legal action, as the Python arg-max player does). The
//! buffers of the encoder and of the runtime's state are kept between decisions in a
//! small pool (one per thread that decides at the same time); the runtime allocates its
//! own tensors for each pass.
//!
//! [`Network::evaluator`] turns the network into the [`LeafEvaluator`] of a
//! [`crate::guided::GuidedSearch`]: a softmax over the masked logits as the priors, the
//! sigmoid of the value logit as the deciding seat's expected outcome.
//!
//! ```
//! use carcassonne::{Game, GameConfig};
//! use carcassonne_session::net::Network;
//! let net = Network::shipped().unwrap();
//! let game = Game::new(GameConfig::new(2)).unwrap();
//! net.check_config(game.config()).unwrap();
//! let action = net.choose(&game).unwrap();
//! assert!(game.is_legal(action));
//! // The shipped network was made for the 2-player base game only.
//! let four = GameConfig::new(4);
//! let refused = net.check_config(&four).unwrap_err().to_string();
//! assert!(refused.contains("the network was made for 2 players, this game has 4"), "{refused}");
//! ```

use crate::encode::schema::layout_version_hex;
use crate::encode::{EncoderSpec, FlatDecision, Layout, Preset};
use crate::guided::{
    FlatEstimates, FlatEvaluator, FlatLeaves, GuidedSearch, LeafEvaluator, SearchError,
};
use crate::json::echo;
use crate::mcts::{parse_budget, Budget};
use crate::session::Session;
use carcassonne::config::Figures;
use carcassonne::{Action, Game, GameConfig, Rng};
use std::fmt;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};
use tract_onnx::prelude::*;

/// The metadata key of the observation layout version the network was trained on (16
/// hexadecimal digits, as Python's `carcassonne.LAYOUT_VERSION`).
pub const META_LAYOUT_VERSION: &str = "carcassonne.layout_version";
/// The metadata key of the observation preset (`compact`, `in-play` or `full`).
pub const META_PRESET: &str = "carcassonne.preset";
/// The metadata key of the observation window (its side, in squares).
pub const META_WINDOW: &str = "carcassonne.window";
/// The metadata key of the game configuration the network was trained for: a
/// configuration object as in a game record's `setup` (`players`, `sets`, and optionally
/// `edition`, `rules`, `figures`; `seed` and `start` are ignored).
pub const META_CONFIG: &str = "carcassonne.config";

/// The largest network file [`Network::from_path`] reads, in bytes (64 MiB).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// The network shipped with the crate: the expert-iteration network of the 2-player
/// base game (`examples/expert_iteration_base_2p.pt` exported by
/// `examples/expert_iteration.py --export`), window 24, preset `compact`.
pub static SHIPPED_BASE_2P: &[u8] = include_bytes!("../nets/base-2p.onnx");

/// Why a network cannot be loaded or cannot play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file cannot be read, or it is not an ONNX model this engine runs (the message
    /// says why).
    Load(String),
    /// The model's metadata or its inputs and outputs are missing or malformed (the
    /// message names the key or the input).
    Metadata(String),
    /// The network was made for something else than what it is asked to play.
    Mismatch {
        /// What differs: `layout version`, `window`, `preset`, `players`, `edition`,
        /// `sets`, `rules.<switch>` or `figures.<figure>`.
        field: String,
        /// What the network was made for.
        made_for: String,
        /// What the game (or layout) has.
        this_game: String,
    },
    /// The forward pass failed.
    Run(String),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Load(m) => write!(f, "network: {m}"),
            NetError::Metadata(m) => write!(f, "network metadata: {m}"),
            NetError::Mismatch {
                field,
                made_for,
                this_game,
            } => {
                let (made, this) = match field.as_str() {
                    "players" => (
                        format!("{made_for} players"),
                        format!("this game has {this_game}"),
                    ),
                    "layout version" => (
                        format!("layout version {made_for}"),
                        format!("this build uses {this_game}"),
                    ),
                    _ => (
                        format!("{field} {made_for}"),
                        format!("this game uses {this_game}"),
                    ),
                };
                write!(f, "{field}: the network was made for {made}, {this}")
            }
            NetError::Run(m) => write!(f, "network: the forward pass failed: {m}"),
        }
    }
}

impl std::error::Error for NetError {}

fn mismatch(field: &str, made_for: impl fmt::Display, this_game: impl fmt::Display) -> NetError {
    NetError::Mismatch {
        field: field.to_string(),
        made_for: made_for.to_string(),
        this_game: this_game.to_string(),
    }
}

/// The buffers of one decision at a time: the encoder's session and arrays, and the
/// runtime's state.
struct Scratch {
    session: Option<Session>,
    planes: Vec<u8>,
    globals: Vec<f32>,
    mask: Vec<i8>,
    /// The state of the plan of any batch.
    state: TypedSimpleState,
    /// The state of the plan of one row.
    single: TypedSimpleState,
    /// The state of the plan of [`PLANNED_BATCH`] rows, and its inputs.
    batched: TypedSimpleState,
    batch_planes: Vec<u8>,
    batch_globals: Vec<f32>,
}

/// The rows of the second fixed plan of a network (see [`Network::forward`]): the
/// guided search's default batch of leaves.
pub const PLANNED_BATCH: usize = GuidedSearch::DEFAULT_BATCH as usize;

/// The model's plan with the batch dimension of both inputs fixed at `rows`.
fn fixed_batch_plan(
    model: &InferenceModel,
    layout: &Layout,
    rows: usize,
) -> TractResult<Arc<TypedRunnableModel>> {
    let w = usize::from(layout.window());
    model
        .clone()
        .with_input_fact(
            0,
            InferenceFact::dt_shape(u8::datum_type(), tvec!(rows, layout.num_planes(), w, w)),
        )?
        .with_input_fact(
            1,
            InferenceFact::dt_shape(f32::datum_type(), tvec!(rows, layout.num_globals())),
        )?
        .into_optimized()?
        .into_runnable()
}

/// A loaded policy-value network, optimised into a runnable plan (see the module
/// documentation).
pub struct Network {
    /// The plan for any number of rows (the batch dimension left symbolic).
    plan: Arc<TypedRunnableModel>,
    /// The plan for one row (the batch dimension fixed at 1, so that the runtime
    /// optimises every operator for that shape): the arg-max player's, and a batch of one.
    single: Arc<TypedRunnableModel>,
    /// The plan for [`PLANNED_BATCH`] rows: a call of 2 to that many rows runs it with
    /// the rows after its own zero (the guided search's batches of leaves).
    batched: Arc<TypedRunnableModel>,
    layout: Arc<Layout>,
    config: GameConfig,
    pool: Mutex<Vec<Scratch>>,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("window", &self.layout.window())
            .field("preset", &self.layout.preset().name())
            .field("players", &self.config.players)
            .finish_non_exhaustive()
    }
}

impl Network {
    /// The network embedded in this crate ([`SHIPPED_BASE_2P`]), loaded once per
    /// process.
    pub fn shipped() -> Result<Arc<Network>, NetError> {
        static SHIPPED: OnceLock<Result<Arc<Network>, NetError>> = OnceLock::new();
        SHIPPED
            .get_or_init(|| Network::from_bytes(SHIPPED_BASE_2P).map(Arc::new))
            .clone()
    }

    /// Reads a network file (at most [`MAX_FILE_BYTES`]).
    pub fn from_path(path: &Path) -> Result<Network, NetError> {
        let shown = path.display();
        let len = std::fs::metadata(path)
            .map_err(|e| NetError::Load(format!("{shown}: {e}")))?
            .len();
        if len > MAX_FILE_BYTES {
            return Err(NetError::Load(format!(
                "{shown}: {len} bytes; a network file may have at most {MAX_FILE_BYTES}"
            )));
        }
        let bytes = std::fs::read(path).map_err(|e| NetError::Load(format!("{shown}: {e}")))?;
        Network::from_bytes(&bytes).map_err(|e| match e {
            NetError::Load(m) => NetError::Load(format!("{shown}: {m}")),
            NetError::Metadata(m) => NetError::Metadata(format!("{shown}: {m}")),
            other => other,
        })
    }

    /// Reads a network from the bytes of an ONNX model, checks its metadata and its
    /// inputs and outputs, and optimises it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let onnx = tract_onnx::onnx();
        let proto = onnx
            .proto_model_for_read(&mut &bytes[..])
            .map_err(|e| NetError::Load(format!("not an ONNX model: {e}")))?;
        let meta = |key: &str| -> Result<&str, NetError> {
            proto
                .metadata_props
                .iter()
                .find(|p| p.key == key)
                .map(|p| p.value.as_str())
                .ok_or_else(|| NetError::Metadata(format!("{key}: missing")))
        };
        let version = meta(META_LAYOUT_VERSION)?;
        if version != layout_version_hex() {
            return Err(mismatch("layout version", version, layout_version_hex()));
        }
        let preset_name = meta(META_PRESET)?;
        let preset = Preset::from_name(preset_name).ok_or_else(|| {
            NetError::Metadata(format!(
                "{META_PRESET}: unknown preset {preset_name:?} (full, in-play, compact)"
            ))
        })?;
        let window_text = meta(META_WINDOW)?;
        let spec = window_text
            .parse::<u16>()
            .map_err(|_| format!("expected an integer, found {window_text:?}"))
            .and_then(|w| EncoderSpec::new(w).map_err(|e| e.message))
            .map_err(|m| NetError::Metadata(format!("{META_WINDOW}: {m}")))?;
        let config_text = meta(META_CONFIG)?;
        let value: serde_json::Value = serde_json::from_str(config_text)
            .map_err(|e| NetError::Metadata(format!("{META_CONFIG}: not JSON: {e}")))?;
        let config = GameConfig::from_json(&value)
            .map_err(|e| NetError::Metadata(format!("{META_CONFIG}: {e}")))?;
        let layout = Arc::new(Layout::new(spec, preset, &config));
        let load = |e: TractError| NetError::Load(format!("{e:#}"));
        let inference = onnx.model_for_proto_model(&proto).map_err(load)?;
        let model = inference.clone().into_optimized().map_err(load)?;
        check_io(&model, &layout)?;
        let plan = model.into_runnable().map_err(load)?;
        let single = fixed_batch_plan(&inference, &layout, 1).map_err(load)?;
        let batched = fixed_batch_plan(&inference, &layout, PLANNED_BATCH).map_err(load)?;
        Ok(Network {
            plan,
            single,
            batched,
            layout,
            config,
            pool: Mutex::new(Vec::new()),
        })
    }

    /// The layout of the network's inputs and outputs (window, preset, sizes).
    pub fn layout(&self) -> &Arc<Layout> {
        &self.layout
    }

    /// The configuration the network was made for.
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// Refuses a game configuration other than the network's (players, edition, sets in
    /// any order, rule switches, figures; the seed and the start tile do not count),
    /// naming the first field that differs.
    pub fn check_config(&self, config: &GameConfig) -> Result<(), NetError> {
        if same_game(&self.config, config) {
            return Ok(());
        }
        let (made, this) = (&self.config, config);
        if made.players != this.players {
            return Err(mismatch("players", made.players, this.players));
        }
        if made.edition != this.edition {
            return Err(mismatch(
                "edition",
                made.edition.name(),
                this.edition.name(),
            ));
        }
        let sets = |c: &GameConfig| {
            let mut keys: Vec<&str> = c.sets.iter().map(|s| s.key()).collect();
            keys.sort_unstable();
            keys.join(", ")
        };
        if sets(made) != sets(this) {
            return Err(mismatch("sets", sets(made), sets(this)));
        }
        let (made_rules, this_rules) = (made.rules.to_json(), this.rules.to_json());
        if let (Some(a), Some(b)) = (made_rules.as_object(), this_rules.as_object()) {
            for (key, value) in a {
                let other = b.get(key).cloned().unwrap_or(serde_json::Value::Null);
                if *value != other {
                    return Err(mismatch(&format!("rules.{key}"), value, other));
                }
            }
        }
        for ((key, a), b) in Figures::KEYS
            .iter()
            .zip(made.figures.counts())
            .zip(this.figures.counts())
        {
            if a != b {
                return Err(mismatch(&format!("figures.{key}"), a, b));
            }
        }
        Err(mismatch("rules", made_rules, this_rules))
    }

    /// Refuses a layout other than the network's: another window or preset (the sizes
    /// then differ too).
    pub fn check_layout(&self, layout: &Layout) -> Result<(), NetError> {
        if layout.window() != self.layout.window() {
            return Err(mismatch("window", self.layout.window(), layout.window()));
        }
        if layout.preset() != self.layout.preset() {
            return Err(mismatch(
                "preset",
                self.layout.preset().name(),
                layout.preset().name(),
            ));
        }
        if layout.num_actions() != self.layout.num_actions()
            || layout.num_globals() != self.layout.num_globals()
            || layout.planes_len() != self.layout.planes_len()
        {
            return Err(mismatch("layout sizes", sizes(&self.layout), sizes(layout)));
        }
        Ok(())
    }

    /// Runs the network on `count` rows of encoded observations (`planes` `u8 [count, C,
    /// W, W]`, `globals` `f32 [count, G]` of the network's layout) and gives each row's
    /// logits over the flat ids (`[count, A]`) and value logit (`[count]`) to `read`.
    pub fn forward<R>(
        &self,
        count: usize,
        planes: &[u8],
        globals: &[f32],
        read: impl FnOnce(&[f32], &[f32]) -> R,
    ) -> Result<R, NetError> {
        let mut scratch = self.take_scratch()?;
        let s = &mut scratch;
        let result = if count == 1 {
            self.run(&mut s.single, 1, 1, planes, globals, read)
        } else if count <= PLANNED_BATCH {
            let (p, g) = (self.layout.planes_len(), self.layout.num_globals());
            s.batch_planes.resize(PLANNED_BATCH * p, 0);
            s.batch_planes[..count * p].copy_from_slice(&planes[..count * p]);
            s.batch_planes[count * p..].fill(0);
            s.batch_globals.resize(PLANNED_BATCH * g, 0.0);
            s.batch_globals[..count * g].copy_from_slice(&globals[..count * g]);
            s.batch_globals[count * g..].fill(0.0);
            let rows = PLANNED_BATCH;
            self.run(
                &mut s.batched,
                rows,
                count,
                &s.batch_planes,
                &s.batch_globals,
                read,
            )
        } else {
            self.run(&mut s.state, count, count, planes, globals, read)
        };
        self.give_back(scratch);
        result
    }

    /// Runs the plan of `state` on `rows` rows and gives the outputs of the first
    /// `count` to `read`.
    fn run<R>(
        &self,
        state: &mut TypedSimpleState,
        rows: usize,
        count: usize,
        planes: &[u8],
        globals: &[f32],
        read: impl FnOnce(&[f32], &[f32]) -> R,
    ) -> Result<R, NetError> {
        let l = &self.layout;
        let w = usize::from(l.window());
        let run = |e: TractError| NetError::Run(format!("{e:#}"));
        let board = Tensor::from_shape(&[rows, l.num_planes(), w, w], planes).map_err(run)?;
        let globals = Tensor::from_shape(&[rows, l.num_globals()], globals).map_err(run)?;
        let outputs = state
            .run(tvec!(board.into(), globals.into()))
            .map_err(run)?;
        let logits = outputs[0]
            .try_as_plain_ram()
            .and_then(|v| v.as_slice::<f32>())
            .map_err(run)?;
        let values = outputs[1]
            .try_as_plain_ram()
            .and_then(|v| v.as_slice::<f32>())
            .map_err(run)?;
        if logits.len() != rows * l.num_actions() || values.len() != rows {
            return Err(NetError::Run(format!(
                "the network gave {} logits and {} values for {rows} rows of {} ids",
                logits.len(),
                values.len(),
                l.num_actions()
            )));
        }
        Ok(read(&logits[..count * l.num_actions()], &values[..count]))
    }

    /// The legal action of `game`'s current decision with the highest logit (see the
    /// module documentation). Refuses a game the network was not made for
    /// ([`Network::check_config`]), a finished game and a chance event.
    pub fn choose(&self, game: &Game) -> Result<Action, NetError> {
        self.check_config(game.config())?;
        if game.is_terminal() || game.phase().is_chance() {
            return Err(NetError::Run(
                "the game has no player's decision now (it is over or waits for a draw)".into(),
            ));
        }
        if let [only] = game.legal() {
            return Ok(*only);
        }
        let mut scratch = self.take_scratch()?;
        let result = self.choose_with(&mut scratch, game);
        self.give_back(scratch);
        result
    }

    fn choose_with(&self, s: &mut Scratch, game: &Game) -> Result<Action, NetError> {
        let session = match &mut s.session {
            Some(session) => {
                session.with_game_mut(|g| g.clone_from(game));
                session
            }
            none => none.insert(Session::with_layout(game.clone(), self.layout.clone())),
        };
        let player = game.to_play();
        // Two steps at most: a CELL id, then a SLOT id.
        for _ in 0..2 {
            let encode = |e: crate::encode::EncodeError| NetError::Run(e.to_string());
            session.legal_mask(&mut s.mask).map_err(encode)?;
            if !s.mask.contains(&1) {
                return Ok(game.legal()[0]);
            }
            session
                .observe(player, &mut s.planes, &mut s.globals)
                .map_err(encode)?;
            let mask = &s.mask;
            let id = self.run(&mut s.single, 1, 1, &s.planes, &s.globals, |logits, _| {
                let mut best: Option<(usize, f32)> = None;
                for (i, (&l, &m)) in logits.iter().zip(mask).enumerate() {
                    if m == 1 && best.is_none_or(|(_, b)| l > b) {
                        best = Some((i, l));
                    }
                }
                best.map(|(i, _)| i as u32)
            })?;
            let id = id.expect("the mask offers an id");
            match session.decode(id) {
                Some(FlatDecision::Action(action)) => return Ok(action),
                Some(FlatDecision::Focus(_)) => {
                    session.step(id).map_err(|e| NetError::Run(e.to_string()))?;
                }
                None => {
                    return Err(NetError::Run(format!(
                        "id {id} is offered by the mask but decodes to nothing"
                    )))
                }
            }
        }
        Err(NetError::Run(
            "no action after a CELL id and a SLOT id".into(),
        ))
    }

    /// The network as the leaf evaluator of a [`crate::guided::GuidedSearch`]: a softmax
    /// over the masked logits as the priors, the sigmoid of the value logit as the
    /// deciding seat's expected outcome (the other seats share the rest).
    pub fn evaluator(self: &Arc<Self>) -> impl LeafEvaluator {
        let net = Arc::clone(self);
        let a_len = self.layout.num_actions();
        FlatEvaluator::new(
            self.layout.clone(),
            move |leaves: &FlatLeaves<'_>, out: &mut FlatEstimates<'_>| {
                net.forward(
                    leaves.count,
                    leaves.planes,
                    leaves.globals,
                    |logits, values| {
                        let players = out.values.len() / leaves.count.max(1);
                        for i in 0..leaves.count {
                            let row = &logits[i * a_len..(i + 1) * a_len];
                            let mask = &leaves.masks[i * a_len..(i + 1) * a_len];
                            let priors = &mut out.priors[i * a_len..(i + 1) * a_len];
                            softmax_masked(row, mask, priors);
                            out.values[i * players] = 1.0 / (1.0 + (-values[i]).exp());
                        }
                    },
                )
                .map_err(|e| e.to_string())
            },
        )
    }

    fn take_scratch(&self) -> Result<Scratch, NetError> {
        if let Some(s) = self.pool.lock().unwrap_or_else(|e| e.into_inner()).pop() {
            return Ok(s);
        }
        let l = &self.layout;
        Ok(Scratch {
            session: None,
            planes: vec![0; l.planes_len()],
            globals: vec![0.0; l.num_globals()],
            mask: vec![0; l.num_actions()],
            state: self
                .plan
                .spawn()
                .map_err(|e| NetError::Run(format!("{e:#}")))?,
            single: self
                .single
                .spawn()
                .map_err(|e| NetError::Run(format!("{e:#}")))?,
            batched: self
                .batched
                .spawn()
                .map_err(|e| NetError::Run(format!("{e:#}")))?,
            batch_planes: Vec::new(),
            batch_globals: Vec::new(),
        })
    }

    fn give_back(&self, scratch: Scratch) {
        self.pool
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(scratch);
    }
}

/// Softmax of `logits` over the ids that `mask` offers (1), zero elsewhere.
fn softmax_masked(logits: &[f32], mask: &[i8], out: &mut [f32]) {
    let max = logits
        .iter()
        .zip(mask)
        .filter(|(_, &m)| m == 1)
        .map(|(&l, _)| l)
        .fold(f32::NEG_INFINITY, f32::max);
    if max == f32::NEG_INFINITY {
        return;
    }
    let mut sum = 0.0;
    for ((o, &l), &m) in out.iter_mut().zip(logits).zip(mask) {
        *o = if m == 1 { (l - max).exp() } else { 0.0 };
        sum += *o;
    }
    for o in out.iter_mut() {
        *o /= sum;
    }
}

/// The same game for a network: everything but the seed and the start tile.
fn same_game(a: &GameConfig, b: &GameConfig) -> bool {
    a.players == b.players
        && a.edition == b.edition
        && a.rules == b.rules
        && a.figures == b.figures
        && a.sets.len() == b.sets.len()
        && a.sets.iter().all(|s| b.sets.contains(s))
}

fn sizes(l: &Layout) -> String {
    format!(
        "{} planes, {} globals, {} ids",
        l.num_planes(),
        l.num_globals(),
        l.num_actions()
    )
}

/// Checks the model's inputs (`board` `u8 [batch, C, W, W]`, `globals` `f32 [batch, G]`)
/// and outputs (`logits` `f32 [batch, A]`, `value` `f32 [batch]`) against `layout`.
fn check_io(model: &TypedModel, layout: &Layout) -> Result<(), NetError> {
    let w = usize::from(layout.window());
    let bad = |m: String| Err(NetError::Metadata(m));
    let io = |e: TractError| NetError::Metadata(format!("{e:#}"));
    let inputs = model.input_outlets().map_err(io)?.len();
    let outputs = model.output_outlets().map_err(io)?.len();
    if inputs != 2 || outputs != 2 {
        return bad(format!(
            "expected 2 inputs (board, globals) and 2 outputs (logits, value), found {inputs} and {outputs}"
        ));
    }
    let expect = [
        (
            "input board",
            model.input_fact(0),
            DatumType::U8,
            vec![layout.num_planes(), w, w],
        ),
        (
            "input globals",
            model.input_fact(1),
            DatumType::F32,
            vec![layout.num_globals()],
        ),
        (
            "output logits",
            model.output_fact(0),
            DatumType::F32,
            vec![layout.num_actions()],
        ),
        ("output value", model.output_fact(1), DatumType::F32, vec![]),
    ];
    for (name, fact, dt, dims) in expect {
        let fact = fact.map_err(io)?;
        let found: Vec<String> = fact.shape.iter().map(|d| d.to_string()).collect();
        let wanted: Vec<String> = std::iter::once("batch".to_string())
            .chain(dims.iter().map(|d| d.to_string()))
            .collect();
        let same_rest = found.len() == wanted.len()
            && fact
                .shape
                .iter()
                .skip(1)
                .zip(&dims)
                .all(|(d, &n)| d.to_i64().ok() == Some(n as i64));
        if fact.datum_type != dt || !same_rest {
            return bad(format!(
                "{name}: expected {dt:?} [{}] for this layout ({}), found {:?} [{}]",
                wanted.join(", "),
                sizes(layout),
                fact.datum_type,
                found.join(", ")
            ));
        }
    }
    Ok(())
}

/// The networks loaded for player specs, by source (the path; empty for the shipped
/// network): each loaded once per process.
static LOADED: Mutex<Vec<(String, Arc<Network>)>> = Mutex::new(Vec::new());

/// A network loaded for a player spec (`net` or `net:PATH`), by its index in the
/// process's registry of loaded networks: plain data, so that a built-in player stays
/// `Copy`. The same source is loaded once per process.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct NetRef(u32);

impl NetRef {
    /// The shipped network ([`Network::shipped`]).
    pub fn shipped() -> Result<NetRef, NetError> {
        NetRef::load("")
    }

    /// The network of file `path`, loaded the first time it is asked for.
    pub fn from_path(path: &str) -> Result<NetRef, NetError> {
        if path.is_empty() {
            return Err(NetError::Load("expected a file path after net:".into()));
        }
        NetRef::load(path)
    }

    fn load(source: &str) -> Result<NetRef, NetError> {
        let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = loaded.iter().position(|(s, _)| s == source) {
            return Ok(NetRef(i as u32));
        }
        let net = if source.is_empty() {
            Network::shipped()?
        } else {
            Arc::new(Network::from_path(Path::new(source))?)
        };
        loaded.push((source.to_string(), net));
        Ok(NetRef((loaded.len() - 1) as u32))
    }

    /// The file the network was read from; empty for the shipped network.
    pub fn source(self) -> String {
        LOADED.lock().unwrap_or_else(|e| e.into_inner())[self.0 as usize]
            .0
            .clone()
    }

    /// The network.
    pub fn network(self) -> Arc<Network> {
        LOADED.lock().unwrap_or_else(|e| e.into_inner())[self.0 as usize]
            .1
            .clone()
    }
}

/// A learned player of a built-in player spec: `net` (the shipped network), `net:PATH`
/// (the network of a file), the network's arg-max; with `:search=<budget>` after `net`
/// or after the path (`net:search=50`, `net:PATH:search=50`), a [`GuidedSearch`] of that
/// budget (iterations, or a time such as `50ms`) with the network as its evaluator,
/// playing the most visited action. Plain data: the network is a [`NetRef`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct NetPlayer {
    /// The network.
    pub net: NetRef,
    /// The guided search, if the network guides one.
    pub search: Option<GuidedSearch>,
}

impl NetPlayer {
    /// Reads what follows `net` in a player spec: nothing (the shipped network),
    /// `:search=<budget>` (the shipped network guiding a search), `:PATH` or
    /// `:PATH:search=<budget>`; the network is loaded (once per process and source). A
    /// file whose path starts with `search=` is named with a directory
    /// (`net:./search=1.onnx`). The message of an error says what was wrong.
    pub fn parse(rest: &str) -> Result<NetPlayer, String> {
        if rest.is_empty() {
            let net = NetRef::shipped().map_err(|e| e.to_string())?;
            return Ok(NetPlayer { net, search: None });
        }
        let Some(rest) = rest.strip_prefix(':') else {
            return Err(
                "expected net, net:search=<budget>, net:PATH or net:PATH:search=<budget>".into(),
            );
        };
        if let Some(budget) = rest.strip_prefix("search=") {
            let search = parse_search(budget)?;
            let net = NetRef::shipped().map_err(|e| e.to_string())?;
            return Ok(NetPlayer {
                net,
                search: Some(search),
            });
        }
        let (path, search) = match rest.rsplit_once(":search=") {
            Some((path, budget)) => (path, Some(parse_search(budget)?)),
            None => (rest, None),
        };
        let net = NetRef::from_path(path).map_err(|e| e.to_string())?;
        Ok(NetPlayer { net, search })
    }

    /// Refuses a game configuration the network was not made for
    /// ([`Network::check_config`]).
    pub fn check(self, config: &GameConfig) -> Result<(), NetError> {
        self.net.network().check_config(config)
    }

    /// The action this player takes in `game` (a player's decision); a search draws its
    /// seed from `rng`. `go_on` can stop a search (`Ok(None)`).
    pub fn choose_while(
        self,
        game: &Game,
        rng: &mut Rng,
        go_on: &mut dyn FnMut() -> bool,
    ) -> Result<Option<Action>, NetError> {
        let net = self.net.network();
        let Some(search) = self.search else {
            return net.choose(game).map(Some);
        };
        net.check_config(game.config())?;
        if game.legal().len() == 1 {
            return Ok(Some(game.legal()[0]));
        }
        let mut evaluator = net.evaluator();
        match search.evaluate_while(game, rng.next_u64(), &mut evaluator, go_on) {
            Ok(eval) => Ok(Some(eval.best().action)),
            Err(SearchError::Stopped) => Ok(None),
            Err(e) => Err(NetError::Run(e.to_string())),
        }
    }
}

/// The guided search of a budget in a `net` spec (the text after `search=`): iterations
/// (`search=50`) or milliseconds per decision (`search=20ms`).
fn parse_search(budget: &str) -> Result<GuidedSearch, String> {
    let budget = parse_budget(budget).map_err(|_| {
        format!(
            "search={}: expected a budget of iterations from 1 to {} (search=50) or of \
             milliseconds from 1 to {} (search=20ms)",
            echo(budget),
            Budget::MAX_ITERATIONS,
            Budget::MAX_MILLIS
        )
    })?;
    let search = GuidedSearch::new(budget);
    search.check().map_err(|e| format!("search: {e}"))?;
    Ok(search)
}

impl fmt::Display for NetPlayer {
    /// The spec that [`NetPlayer::parse`] reads back (after `net`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("net")?;
        let source = self.net.source();
        if !source.is_empty() {
            write!(f, ":{source}")?;
        }
        if let Some(search) = self.search {
            write!(f, ":search={}", search.budget)?;
        }
        Ok(())
    }
}
