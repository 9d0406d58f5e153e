//! [`Session`]: one game as every front end drives it: the game, the encoder settings
//! (the observation window), the pending focus of a two-step flat decision, and a cache
//! of the current decision ([`DecisionTable`]: the legal list, the window frame and the
//! flat id of every legal action).
//!
//! The game computes its legal list once per decision ([`Game::legal`]); the session adds
//! the flat ids of that list once per decision, when something asks for them (a mask, an
//! observation, a flat id), so decoding a flat id is a lookup in a short table. The
//! command line, the C ABI and the Python package all wrap this type.
//!
//! A session made with [`Session::with_layout`] speaks the ids, planes and globals of a
//! [`Layout`] (an observation preset such as the sets in play): its masks, observations,
//! [`Session::step`] and [`Session::decode`] take and give the layout's ids, and
//! [`Session::num_actions`], [`Session::planes_len`] and [`Session::num_globals`] size
//! the buffers.
//!
//! ```
//! use carcassonne::{Game, GameConfig};
//! use carcassonne_session::encode::EncoderSpec;
//! use carcassonne_session::session::Session;
//! let spec = EncoderSpec::default();
//! let mut session = Session::new(Game::new(GameConfig::new(2)).unwrap(), spec);
//! let mut mask = vec![0i8; spec.num_actions()];
//! while !session.game().is_terminal() {
//!     session.legal_mask(&mut mask).unwrap();
//!     let id = mask.iter().position(|m| *m == 1).unwrap() as u32;
//!     session.step(id).unwrap();
//! }
//! assert_eq!(session.game().scores().len(), 2);
//! ```

use crate::encode::{
    encode_observation_over, encode_observation_with, DecisionTable, EncodeError, EncoderSpec,
    FlatDecision, FlatError, FlatPath, Layout, MaskInfo, PlaneSet, WindowOrigin,
};
use crate::record::{self, Loaded, RecordError, Resume};
use carcassonne::{Action, ActionError, Game, Phase, Pos};
use serde_json::Value;
use std::sync::Arc;

/// A game with its encoder settings, pending focus and per-decision cache.
#[derive(Clone, Debug)]
pub struct Session {
    game: Game,
    focus: Option<Pos>,
    table: DecisionTable,
    /// Whether `table` describes the current decision.
    fresh: bool,
    /// The observation preset whose ids, planes and globals the session speaks (`None`:
    /// the full encoding).
    layout: Option<Arc<Layout>>,
}

impl Session {
    /// Wraps a game; `spec` gives the observation window of its flat ids.
    pub fn new(game: Game, spec: EncoderSpec) -> Session {
        Session {
            game,
            focus: None,
            table: DecisionTable::new(spec),
            fresh: false,
            layout: None,
        }
    }

    /// Wraps a game whose flat interface is that of `layout` (its window, planes,
    /// globals and ids). A [`crate::encode::Preset::Full`] layout behaves as
    /// [`Session::new`].
    pub fn with_layout(game: Game, layout: Arc<Layout>) -> Session {
        let mut session = Session::new(game, layout.spec());
        if !layout.is_full() {
            session.layout = Some(layout);
        }
        session
    }

    /// Makes the session speak `layout` (a resumed session keeps its game and pending
    /// focus). `layout` must have the session's window; otherwise it is refused and
    /// returned.
    ///
    /// ```
    /// use carcassonne::{Game, GameConfig};
    /// use carcassonne_session::encode::{EncoderSpec, Layout, Preset};
    /// use carcassonne_session::session::Session;
    /// use std::sync::Arc;
    /// let config = GameConfig::new(2);
    /// let spec = EncoderSpec::new(12).unwrap();
    /// let mut session = Session::new(Game::new(config.clone()).unwrap(), spec);
    /// let full = session.num_actions();
    /// session.set_layout(Arc::new(Layout::new(spec, Preset::Compact, &config))).unwrap();
    /// assert!(session.num_actions() < full);
    /// ```
    pub fn set_layout(&mut self, layout: Arc<Layout>) -> Result<(), Arc<Layout>> {
        if layout.spec() != self.spec() {
            return Err(layout);
        }
        self.layout = if layout.is_full() { None } else { Some(layout) };
        Ok(())
    }

    /// The layout the session speaks, if not the full encoding.
    pub fn layout(&self) -> Option<&Arc<Layout>> {
        self.layout.as_ref()
    }

    /// The layout the session speaks: its preset's, or the full encoding's
    /// ([`Layout::full`]).
    pub fn current_layout(&self) -> Arc<Layout> {
        match &self.layout {
            Some(l) => l.clone(),
            None => Layout::full(self.spec()),
        }
    }

    /// Number of planes `C` of the observations.
    pub fn num_planes(&self) -> usize {
        match &self.layout {
            Some(l) => l.num_planes(),
            None => self.spec().num_planes(),
        }
    }

    /// Length of the planes buffer of [`Session::observe`].
    pub fn planes_len(&self) -> usize {
        match &self.layout {
            Some(l) => l.planes_len(),
            None => self.spec().planes_len(),
        }
    }

    /// Length of the globals buffer of [`Session::observe`].
    pub fn num_globals(&self) -> usize {
        match &self.layout {
            Some(l) => l.num_globals(),
            None => self.spec().num_globals(),
        }
    }

    /// Number of flat ids (the length of a mask).
    pub fn num_actions(&self) -> usize {
        match &self.layout {
            Some(l) => l.num_actions(),
            None => self.spec().num_actions(),
        }
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game, giving up the pending focus and the cache.
    pub fn into_game(self) -> Game {
        self.game
    }

    /// Replaces the game (a new episode), keeping the spec and the cache's buffers.
    pub fn reset(&mut self, game: Game) {
        self.game = game;
        self.focus = None;
        self.fresh = false;
    }

    /// The encoder settings.
    pub fn spec(&self) -> EncoderSpec {
        self.table.spec()
    }

    /// The focus tile picked by a `CELL` id, waiting for its `SLOT` id.
    pub fn pending_focus(&self) -> Option<Pos> {
        self.focus
    }

    /// Drops the pending focus (the `CELL` id is taken back; the game never changed).
    /// Whether there was one.
    pub fn cancel_focus(&mut self) -> bool {
        self.focus.take().is_some()
    }

    /// Picks the tile at `pos` as the pending focus, as the `CELL` id of that square
    /// would: only when a two-step action of the current decision has its focus there
    /// and no focus is pending. Whether it was picked (nothing changes otherwise).
    pub fn set_focus(&mut self, pos: Pos) -> bool {
        if self.focus.is_some() || !self.table().offers_focus(pos) {
            return false;
        }
        self.focus = Some(pos);
        true
    }

    /// What resumes this session exactly: the game's generator state and chance mode,
    /// the window and the pending focus.
    pub fn resume_state(&self) -> Resume {
        Resume {
            window: Some(self.spec().window),
            focus: self.focus,
            ..Resume::of(&self.game)
        }
    }

    /// The record of the game with [`Session::resume_state`] as its `resume` object.
    pub fn record_value(&self, id: &str) -> Value {
        record::to_value_with(&self.game, id, &self.resume_state())
    }

    /// The record of the game as one line of JSON (see [`Session::record_value`]);
    /// refused, naming `id`, when it would be longer than a record may be (see
    /// [`record::to_json`]).
    pub fn record_json(&self, id: &str) -> Result<String, RecordError> {
        record::checked_size(self.record_value(id).to_string(), id)
    }

    /// The session of a loaded record ([`record::load`]): the window is `spec` if given,
    /// else the record's (`resume.window`), else the default; the record's pending focus
    /// is restored when the window is the record's. A focus that no decision of the game
    /// offers is an error naming `resume.focus`.
    ///
    /// ```
    /// use carcassonne::{Game, GameConfig};
    /// use carcassonne_session::encode::EncoderSpec;
    /// use carcassonne_session::record;
    /// use carcassonne_session::session::Session;
    /// let spec = EncoderSpec::new(9).unwrap();
    /// let session = Session::new(Game::new(GameConfig::new(2)).unwrap(), spec);
    /// let text = session.record_json("saved").unwrap();
    /// let loaded = record::load_json(&text, None).unwrap();
    /// let back = Session::resume(loaded, None).unwrap();
    /// assert_eq!(back.spec(), spec);
    /// ```
    pub fn resume(loaded: Loaded, spec: Option<EncoderSpec>) -> Result<Session, RecordError> {
        let saved = loaded.resume.as_ref().and_then(|r| r.window);
        let spec = match (spec, saved) {
            (Some(s), _) => s,
            (None, Some(w)) => EncoderSpec::new(w).map_err(|e| RecordError {
                path: "resume.window".into(),
                message: e.message,
            })?,
            (None, None) => EncoderSpec::default(),
        };
        let focus = loaded.resume.as_ref().and_then(|r| r.focus);
        let mut session = Session::new(loaded.game, spec);
        if let Some(pos) = focus {
            if saved == Some(spec.window) && !session.set_focus(pos) {
                return Err(RecordError {
                    path: "resume.focus".into(),
                    message: format!(
                        "no two-step action of the current decision has its focus tile at {pos}"
                    ),
                });
            }
        }
        Ok(session)
    }

    /// The flat ids of the current decision, computed if the game changed since they
    /// were last asked for.
    fn table(&mut self) -> &DecisionTable {
        if !self.fresh {
            self.table.refresh(&self.game);
            self.fresh = true;
        }
        &self.table
    }

    /// The legal structured actions of the current decision.
    pub fn legal_actions(&self) -> &[Action] {
        self.game.legal()
    }

    /// The game and the legal actions of its current decision together (for a player
    /// that looks at both to choose).
    pub fn decision(&self) -> (&Game, &[Action]) {
        (&self.game, self.game.legal())
    }

    /// The window origin of the current decision.
    pub fn window_origin(&mut self) -> WindowOrigin {
        self.table().origin()
    }

    /// Writes the mask of the current step (see [`DecisionTable::mask`]).
    pub fn legal_mask(&mut self, mask: &mut [i8]) -> Result<MaskInfo, EncodeError> {
        let focus = self.focus;
        let Some(layout) = self.layout.clone() else {
            return self.table().mask(focus, mask);
        };
        crate::encode::check_len("mask", mask.len(), layout.num_actions())?;
        let table = self.table();
        layout.with_scratch(|_, _, full| {
            let info = table.mask(focus, full)?;
            layout.mask_from_full(full, info, mask)
        })
    }

    /// Writes the observation of the current step for `player` (see
    /// [`crate::encode::encode_observation_at`]).
    pub fn observe(
        &mut self,
        player: usize,
        planes: &mut [u8],
        globals: &mut [f32],
    ) -> Result<WindowOrigin, EncodeError> {
        let mut unknown = PlaneSet::ALL;
        self.observe_over(player, planes, globals, &mut unknown)
    }

    /// [`Session::observe`] into a buffer of which only the planes in `written` may hold
    /// something, as [`crate::encode::encode_observation_over`] writes it: `written`
    /// becomes the planes written now. (With a preset other than the full one the
    /// buffer is written in full and `written` becomes [`PlaneSet::ALL`].)
    pub fn observe_over(
        &mut self,
        player: usize,
        planes: &mut [u8],
        globals: &mut [f32],
        written: &mut PlaneSet,
    ) -> Result<WindowOrigin, EncodeError> {
        let focus = self.focus;
        self.table();
        let Some(layout) = self.layout.clone() else {
            return encode_observation_over(
                &self.game,
                &self.table,
                focus,
                player,
                planes,
                globals,
                written,
            );
        };
        *written = PlaneSet::ALL;
        crate::encode::check_len("planes", planes.len(), layout.planes_len())?;
        crate::encode::check_len("globals", globals.len(), layout.num_globals())?;
        let (game, table) = (&self.game, &self.table);
        layout.with_scratch(|full_planes, full_globals, _| {
            let origin =
                encode_observation_with(game, table, focus, player, full_planes, full_globals)?;
            layout.observation_from_full(full_planes, full_globals, planes, globals)?;
            Ok(origin)
        })
    }

    /// The full id of flat id `id` of the session's layout (`id` itself without one).
    fn full_id(&self, id: u32) -> Option<u32> {
        match &self.layout {
            Some(l) => l.to_full(id),
            None => Some(id),
        }
    }

    /// The session's id of full id `id`.
    fn own_id(&self, id: u32) -> Option<u32> {
        match &self.layout {
            Some(l) => l.to_compact(id),
            None => Some(id),
        }
    }

    /// What flat `id` would do now.
    pub fn decode(&mut self, id: u32) -> Option<FlatDecision> {
        let focus = self.focus;
        let id = self.full_id(id)?;
        self.table();
        self.table.decode(&self.game, focus, id)
    }

    /// The flat ids of a legal structured `action` (no pending focus assumed).
    pub fn flat_path(&mut self, action: Action) -> Option<FlatPath> {
        self.table();
        let path = self.table.path(&self.game, action)?;
        Some(FlatPath {
            first: self.own_id(path.first)?,
            second: match path.second {
                Some(s) => Some(self.own_id(s)?),
                None => None,
            },
        })
    }

    /// Takes flat id `id`: picks a focus tile, or applies the action it completes. A
    /// refused id leaves everything unchanged.
    pub fn step(&mut self, id: u32) -> Result<FlatDecision, FlatError> {
        match self.game.phase() {
            Phase::GameOver => return Err(FlatError::GameOver),
            phase if phase.is_chance() => return Err(FlatError::ChanceNode),
            _ => {}
        }
        let decision = self.decode(id).ok_or(FlatError::NotOffered { id })?;
        self.take_decoded(decision);
        Ok(decision)
    }

    /// Takes what [`Session::decode`] gave for an id of the current step: picks the focus
    /// tile or applies the action (the batched environments decode each id once).
    pub(crate) fn take_decoded(&mut self, decision: FlatDecision) {
        match decision {
            FlatDecision::Focus(pos) => self.focus = Some(pos),
            FlatDecision::Action(a) => self.apply_legal(a),
        }
    }

    /// Applies a structured action (a chance outcome included) if it is legal now,
    /// clearing any pending focus; an illegal one is refused and nothing changes.
    pub fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        if self.game.is_terminal() {
            return Err(ActionError::GameOver);
        }
        if !self.game.is_legal(action) {
            return Err(ActionError::Illegal {
                action,
                phase: self.game.phase(),
            });
        }
        self.apply_legal(action);
        Ok(())
    }

    /// Applies an action taken from the current legal list.
    fn apply_legal(&mut self, action: Action) {
        self.game.apply_unchecked(action);
        self.focus = None;
        self.fresh = false;
    }

    /// Changes the game through `f` (a chance-mode switch, say); the cache and any
    /// pending focus are dropped.
    pub fn with_game_mut<R>(&mut self, f: impl FnOnce(&mut Game) -> R) -> R {
        self.focus = None;
        self.fresh = false;
        f(&mut self.game)
    }
}
