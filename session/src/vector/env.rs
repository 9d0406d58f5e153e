//! One game of a batch: its episodes, its opponents' moves and one step.

#[cfg(doc)]
use super::StepBuffers;
use super::{seed_in_stream, Autoreset, BatchSettings, IllegalPolicy, OutsidePolicy};
use crate::bots::Bot;
use crate::encode::{self, MaskInfo, PlaneSet};
use crate::session::Session;
use carcassonne::config::MAX_PLAYERS;
use carcassonne::{Game, Rng};

/// Where one game writes its step results (its rows of the buffers).
pub(super) struct Out<'a> {
    pub(super) board: Option<&'a mut [u8]>,
    pub(super) globals: Option<&'a mut [f32]>,
    pub(super) mask: &'a mut [i8],
    pub(super) rewards: &'a mut [f32],
    pub(super) to_play: &'a mut i32,
    pub(super) terminated: &'a mut bool,
    pub(super) truncated: &'a mut bool,
    pub(super) final_scores: Option<&'a mut [i32]>,
    pub(super) outside: Option<&'a mut u32>,
    /// The returns per seat and the length of an episode that ended in this step.
    pub(super) episode_returns: Option<&'a mut [f32]>,
    pub(super) episode_length: Option<&'a mut i32>,
    /// The final observation of an episode that ended in this step.
    pub(super) final_board: Option<&'a mut [u8]>,
    pub(super) final_globals: Option<&'a mut [f32]>,
    /// See [`StepBuffers::board_kept`].
    pub(super) board_kept: bool,
}

/// One game of the batch.
#[derive(Debug)]
pub(super) struct Env {
    pub(super) session: Session,
    pub(super) rng: Rng,
    pub(super) learner: u8,
    /// The env's seed stream and the index of the next episode in it.
    pub(super) stream: u64,
    pub(super) next_episode: u64,
    /// A seed given for the next episode ([`super::Batch::set_next_seeds`]), used before
    /// the stream.
    pub(super) explicit_seed: Option<u64>,
    /// Seed of the current game.
    pub(super) seed: u64,
    /// Rewards per seat since the episode started, and steps taken.
    pub(super) returns: [f32; MAX_PLAYERS],
    pub(super) length: u32,
    /// Scores when the decision now offered was last offered (rewards are the change).
    pub(super) scores_before: [i32; MAX_PLAYERS],
    pub(super) info: MaskInfo,
    /// The episode ended and the game waits for its reset (next-step or no autoreset).
    pub(super) done: bool,
    /// The address of the board row this game last wrote its observation into, and the
    /// planes it set there (see [`StepBuffers::board_kept`]).
    pub(super) board_row: usize,
    pub(super) board_written: PlaneSet,
}

impl Env {
    pub(super) fn new(settings: &BatchSettings, stream: u64) -> Env {
        let game = Game::new(settings.config.clone()).expect("validated configuration");
        Env {
            session: Session::with_layout(game, settings.layout.clone()),
            rng: Rng::new(0),
            learner: 0,
            stream,
            next_episode: 0,
            explicit_seed: None,
            seed: 0,
            returns: [0.0; MAX_PLAYERS],
            length: 0,
            scores_before: [0; MAX_PLAYERS],
            info: MaskInfo::default(),
            done: false,
            board_row: 0,
            board_written: PlaneSet::ALL,
        }
    }

    fn players(&self) -> usize {
        self.session.game().num_players()
    }

    /// The seat whose observation is written: the learner, or the player to play (with
    /// external opponents, the player to play until the episode is over).
    fn observer(&self, settings: &BatchSettings) -> usize {
        if settings.opponent.is_some()
            || (settings.external && (self.done || self.session.game().is_terminal()))
        {
            self.learner as usize
        } else {
            self.session.game().to_play()
        }
    }

    /// The seat whose last observation of an episode is written.
    fn final_observer(&self, settings: &BatchSettings) -> usize {
        if settings.single_agent() {
            self.learner as usize
        } else {
            self.session.game().to_play()
        }
    }

    /// Starts the next episode: new game, learner seat, opponents up to the learner's
    /// first decision; `false` when `go_on` stopped an opponent's search.
    fn start_episode(&mut self, settings: &BatchSettings, go_on: &mut dyn FnMut() -> bool) -> bool {
        let seed = match self.explicit_seed.take() {
            Some(s) => s,
            None => {
                let k = self.next_episode;
                self.next_episode += 1;
                seed_in_stream(self.stream, k)
            }
        };
        self.seed = seed;
        self.returns = [0.0; MAX_PLAYERS];
        self.length = 0;
        // The game of every episode has the batch's configuration: it starts again in the
        // memory of the last.
        self.session.with_game_mut(|game| game.restart(seed));
        self.rng = Rng::new(seed ^ 0x5851_f42d_4c95_7f2d);
        let n = self.players() as u32;
        self.learner = match settings.learner_seat {
            Some(s) => s,
            None => self.rng.below(n) as u8,
        };
        self.scores_before = [0; MAX_PLAYERS];
        self.done = false;
        self.play_opponents(settings, go_on)
    }

    /// Plays the built-in opponents until the learner decides or the game ends; `false`
    /// when `go_on` stopped a search, the game then partly played.
    fn play_opponents(
        &mut self,
        settings: &BatchSettings,
        go_on: &mut dyn FnMut() -> bool,
    ) -> bool {
        let Some(opponent) = settings.opponent else {
            return true;
        };
        while !self.session.game().is_terminal()
            && self.session.game().to_play() != self.learner as usize
        {
            let (game, legal) = self.session.decision();
            let Some(a) = opponent.choose_while(game, legal, &mut self.rng, go_on) else {
                return false;
            };
            self.session
                .apply(a)
                .expect("built-in players pick legal actions");
        }
        true
    }

    /// Writes the mask of the decision now offered into `mask` and notes what it covers.
    pub(super) fn write_mask(&mut self, mask: &mut [i8]) {
        self.info = self
            .session
            .legal_mask(mask)
            .expect("mask buffer sized by the layout");
    }

    /// Whether the decision now offered offers flat id `id`.
    pub(super) fn offers(&mut self, id: u32) -> bool {
        self.session.decode(id).is_some()
    }

    /// Whether the decision now offered cannot be played under the policy.
    fn must_truncate(&self, settings: &BatchSettings) -> bool {
        !self.session.game().is_terminal()
            && (self.info.offered == 0
                || (settings.outside == OutsidePolicy::Truncate && self.info.outside_window > 0))
    }

    /// Starts episodes until one offers a playable first decision (nearly always the
    /// first one).
    pub(super) fn start_playable_episode(
        &mut self,
        settings: &BatchSettings,
        mask: &mut [i8],
        go_on: &mut dyn FnMut() -> bool,
    ) {
        for _ in 0..64 {
            let started = self.start_episode(settings, go_on);
            self.write_mask(mask);
            if !started || !self.must_truncate(settings) {
                return;
            }
        }
    }

    /// Writes the observation, mask and seat of the decision now offered.
    pub(super) fn write_observation(&mut self, settings: &BatchSettings, out: &mut Out<'_>) {
        let seat = self.observer(settings);
        if let (Some(b), Some(g)) = (out.board.as_deref_mut(), out.globals.as_deref_mut()) {
            // Only the planes set last time need clearing, if this is the row written
            // then and nobody has written into it since.
            let row = b.as_ptr() as usize;
            if !out.board_kept || row != self.board_row {
                self.board_written = PlaneSet::ALL;
            }
            self.board_row = row;
            self.session
                .observe_over(seat, b, g, &mut self.board_written)
                .expect("buffers sized by the layout");
        } else if out.board.is_some() || out.globals.is_some() {
            // One of the two buffers: encode into the given one, scratch for the other
            // (the board row, if given, is written in full: what it holds is not tracked).
            self.board_written = PlaneSet::ALL;
            let layout = &settings.layout;
            let mut b_scratch;
            let mut g_scratch;
            let b: &mut [u8] = match out.board.as_deref_mut() {
                Some(b) => b,
                None => {
                    b_scratch = vec![0u8; layout.planes_len()];
                    &mut b_scratch
                }
            };
            let g: &mut [f32] = match out.globals.as_deref_mut() {
                Some(g) => g,
                None => {
                    g_scratch = vec![0f32; layout.num_globals()];
                    &mut g_scratch
                }
            };
            self.session
                .observe(seat, b, g)
                .expect("buffers sized by the layout");
        }
        *out.to_play = seat as i32;
        if let Some(o) = out.outside.as_deref_mut() {
            *o = self.info.outside_window;
        }
    }

    /// Rewards per seat since `scores_before`.
    fn write_rewards(&mut self, settings: &BatchSettings, rewards: &mut [f32]) {
        let n = self.players();
        let g = self.session.game();
        rewards.fill(0.0);
        encode::step_rewards(
            settings.reward,
            &self.scores_before[..n],
            g.scores(),
            g.is_terminal(),
            &mut rewards[..n],
        )
        .expect("reward slices sized by the game");
        self.scores_before[..n].copy_from_slice(g.scores());
        for (r, x) in self.returns.iter_mut().zip(rewards.iter()) {
            *r += *x;
        }
    }

    /// One step with flat id `id` (the opponents' searches ask `go_on`, see
    /// [`Env::play_opponents`]).
    pub(super) fn step(
        &mut self,
        settings: &BatchSettings,
        id: u32,
        mut out: Out<'_>,
        go_on: &mut dyn FnMut() -> bool,
    ) {
        *out.terminated = false;
        *out.truncated = false;
        // The episode rows are zero unless the episode ends in this step.
        if let Some(f) = out.final_scores.as_deref_mut() {
            f.fill(0);
        }
        if let Some(r) = out.episode_returns.as_deref_mut() {
            r.fill(0.0);
        }
        if let Some(l) = out.episode_length.as_deref_mut() {
            *l = 0;
        }
        if self.done {
            // Next-step autoreset: this step only starts the next episode.
            out.rewards.fill(0.0);
            self.start_playable_episode(settings, out.mask, go_on);
            self.write_observation(settings, &mut out);
            return;
        }
        // Decoded once: what the id picks is taken as it is.
        let decision = match self.session.decode(id) {
            Some(decision) => Some(decision),
            None => match settings.illegal {
                IllegalPolicy::Raise => unreachable!("ids are checked before stepping"),
                IllegalPolicy::Penalize(p) => {
                    out.rewards.fill(0.0);
                    let seat = self.session.game().to_play();
                    out.rewards[seat] = p;
                    self.returns[seat] += p;
                    self.length += 1;
                    self.write_mask(out.mask);
                    self.write_observation(settings, &mut out);
                    return;
                }
                IllegalPolicy::Random => {
                    // The mask of this decision, rebuilt in the output buffer (whatever
                    // the caller did with it) to pick a uniformly random offered id.
                    self.write_mask(out.mask);
                    let count = self.info.offered.max(1);
                    let k = self.rng.below(count) as usize;
                    out.mask
                        .iter()
                        .enumerate()
                        .filter(|(_, m)| **m == 1)
                        .nth(k)
                        .and_then(|(i, _)| self.session.decode(i as u32))
                }
            },
        };
        if let Some(decision) = decision {
            self.session.take_decoded(decision);
        }
        self.length += 1;
        self.play_opponents(settings, go_on);
        self.write_rewards(settings, out.rewards);
        self.write_mask(out.mask);
        let terminated = self.session.game().is_terminal();
        let truncated = self.must_truncate(settings);
        if terminated || truncated {
            *out.terminated = terminated;
            *out.truncated = truncated;
            if let Some(f) = out.final_scores.as_deref_mut() {
                let n = self.players();
                f[..n].copy_from_slice(self.session.game().scores());
            }
            if let Some(r) = out.episode_returns.as_deref_mut() {
                let n = self.players();
                r.copy_from_slice(&self.returns[..n]);
            }
            if let Some(l) = out.episode_length.as_deref_mut() {
                *l = self.length as i32;
            }
            if let (Some(b), Some(g)) = (
                out.final_board.as_deref_mut(),
                out.final_globals.as_deref_mut(),
            ) {
                let seat = self.final_observer(settings);
                self.session
                    .observe(seat, b, g)
                    .expect("buffers sized by the layout");
            }
            if settings.autoreset == Autoreset::SameStep {
                self.start_playable_episode(settings, out.mask, go_on);
            } else {
                self.done = true;
                out.mask.fill(0);
            }
        }
        self.write_observation(settings, &mut out);
    }

    /// The id `bot` would take now (see [`super::Batch::builtin_actions`]); `None` when
    /// `go_on` stopped its search.
    pub(super) fn builtin_action(
        &mut self,
        bot: Bot,
        rng: &mut Rng,
        mask: &mut [i8],
        go_on: &mut dyn FnMut() -> bool,
    ) -> Option<i64> {
        let g = self.session.game();
        if self.done || g.is_terminal() || g.phase().is_chance() {
            return Some(-1);
        }
        let (game, legal) = self.session.decision();
        let action = bot.choose_while(game, legal, rng, go_on)?;
        let focus = self.session.pending_focus();
        let path = if focus.is_some() {
            // The path is computed without the focus: take the focus back for a look.
            let mut probe = self.session.clone();
            probe.cancel_focus();
            probe.flat_path(action)
        } else {
            self.session.flat_path(action)
        };
        let id = match (focus, path) {
            (None, Some(p)) => Some(p.first),
            (Some(_), Some(p)) => p.second.filter(|s| self.session.decode(*s).is_some()),
            _ => None,
        };
        Some(match id {
            Some(id) => id as i64,
            None => {
                self.session
                    .legal_mask(mask)
                    .expect("mask sized by the layout");
                mask.iter().position(|m| *m == 1).map_or(-1, |k| k as i64)
            }
        })
    }
}
