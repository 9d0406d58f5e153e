//! Search targets: what the built-in tree search (`carcassonne_session::mcts`) thinks of
//! a decision, as a learner imitates it: each legal action's share of the visits, the
//! same shares over the flat ids of the current step, and each seat's value.

use crate::guard::{check_out, with_game, write_out, CarcGame};
use crate::status::{CarcStatus, Failure};
use carcassonne_core::{Phase, Rng};
use carcassonne_session::guided::flat_policy;
use carcassonne_session::mcts::{Budget, MctsConfig};

/// What `carc_mcts_search` found, and the buffer sizes it needs (40 bytes, blittable).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Default)]
pub struct CarcSearchInfo {
    /// Legal actions `L` of the decision: the length `shares` needs.
    pub legal: u32,
    /// Flat ids `A` of the game's layout: the length `policy` needs.
    pub actions: u32,
    /// Players `P`: the length `values` needs.
    pub players: u32,
    /// Iterations run.
    pub iterations: u32,
    /// The most visited action, as an index into `carc_game_legal_actions`.
    pub best: u32,
    /// The deciding seat.
    pub player: u32,
    /// The deciding seat's mean reward over the iterations, in 0..1 (½ an even game).
    pub value: f64,
    /// The share of the visits that went to actions with a flat id (1 unless some lay
    /// outside the window).
    pub policy_coverage: f64,
}

/// Searches the current decision of `game` with the built-in Monte Carlo tree search (the
/// player `"mcts:<iterations>"`: random playouts, the smooth score-margin reward) from
/// `seed`, and writes what it found: `shares[i]` (`float [L]`) is the share of the
/// root's visits of the `i`-th action of `carc_game_legal_actions` (they sum to 1);
/// `policy` (`float [A]`, optional) the same shares over the flat ids of the current step
/// (the ids the mask of `carc_game_legal_mask` offers sum to 1, every other id is 0: the
/// target of a policy head); `values` (`double [P]`, optional) each seat's mean reward
/// over the iterations, in 0..1; `*info` the sizes, the iterations, the most visited
/// action and the deciding seat's value. The game is not changed; the same seed gives the
/// same result.
///
/// `iterations` is 1 to 100 000 000 (`CARC_STATUS_INVALID_ARGUMENT` otherwise). A
/// finished game is `CARC_STATUS_GAME_OVER`; a game waiting for a draw (explicit chance)
/// is `CARC_STATUS_ILLEGAL_ACTION` (a chance event is nobody's decision). A buffer shorter
/// than its size in `*info` is `CARC_STATUS_BUFFER_TOO_SMALL`, with only `*info`'s sizes
/// written; `policy` and `values` may be NULL with length 0 (not wanted). Call with
/// `shares` NULL and `shares_len` 0 to ask for the sizes only (no search).
///
/// Ownership: `game` is borrowed (its flat-id cache is refreshed); the buffers and `info`
/// belong to the caller.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn carc_mcts_search(
    game: *const CarcGame,
    iterations: u32,
    seed: u64,
    shares: *mut f32,
    shares_len: u32,
    policy: *mut f32,
    policy_len: u32,
    values: *mut f64,
    values_len: u32,
    info: *mut CarcSearchInfo,
) -> CarcStatus {
    with_game("carc_mcts_search", game, |h| {
        check_out(info, "info")?;
        for (ptr, len, name) in [
            (shares as *mut u8, shares_len, "shares"),
            (policy as *mut u8, policy_len, "policy"),
            (values as *mut u8, values_len, "values"),
        ] {
            if ptr.is_null() && len != 0 {
                return Err(Failure::null(&format!(
                    "{name} (with length {len}; pass length 0 for none)"
                )));
            }
        }
        if !shares.is_null() && !shares.is_aligned()
            || !policy.is_null() && !policy.is_aligned()
            || !values.is_null() && !values.is_aligned()
        {
            return Err(Failure::invalid(
                "a buffer is not aligned for its element type",
            ));
        }
        if iterations == 0 || iterations > Budget::MAX_ITERATIONS {
            return Err(Failure::invalid(format!(
                "iterations: {iterations}; expected 1 to {}",
                Budget::MAX_ITERATIONS
            )));
        }
        let mut session = h.session();
        let sizes = CarcSearchInfo {
            legal: session.legal_actions().len() as u32,
            actions: session.num_actions() as u32,
            players: session.game().num_players() as u32,
            ..CarcSearchInfo::default()
        };
        write_out(info, sizes);
        match session.game().phase() {
            Phase::GameOver => {
                return Err(Failure::new(
                    CarcStatus::GameOver,
                    "the game is over: there is no decision to search",
                ))
            }
            phase if phase.is_chance() => return Err(Failure::new(
                CarcStatus::IllegalAction,
                "the game waits for a draw or a token (a chance event), not a player's decision",
            )),
            _ => {}
        }
        if shares.is_null() {
            return Ok(());
        }
        let short = [
            ("shares", shares_len, sizes.legal, false),
            ("policy", policy_len, sizes.actions, policy.is_null()),
            ("values", values_len, sizes.players, values.is_null()),
        ]
        .into_iter()
        .find(|(_, len, need, absent)| !absent && len < need);
        if let Some((name, len, need, _)) = short {
            return Err(Failure::new(
                CarcStatus::BufferTooSmall,
                format!("{name} needs {need} elements, the buffer holds {len}"),
            ));
        }
        let game = session.game().clone();
        let eval = MctsConfig::new(Budget::Iterations(iterations))
            .evaluate(&game, &mut Rng::new(seed))
            .expect("a decision of a player is searched");
        let mut flat = vec![0f32; sizes.actions as usize];
        let coverage = flat_policy(&mut session, &eval, &mut flat)
            .map_err(|e| Failure::invalid(e.to_string()))?;
        // SAFETY: each buffer is non-NULL (or skipped), aligned (checked), and by the ABI
        // contract valid for its length, which was checked to hold the sizes written.
        unsafe {
            let out = std::slice::from_raw_parts_mut(shares, eval.actions.len());
            for (o, a) in out.iter_mut().zip(&eval.actions) {
                *o = a.share as f32;
            }
            if !policy.is_null() {
                std::slice::from_raw_parts_mut(policy, flat.len()).copy_from_slice(&flat);
            }
            if !values.is_null() {
                std::slice::from_raw_parts_mut(values, eval.values.len())
                    .copy_from_slice(&eval.values);
            }
        }
        let best = eval
            .actions
            .iter()
            .position(|a| a.action == eval.best().action)
            .unwrap_or(0);
        write_out(
            info,
            CarcSearchInfo {
                iterations: eval.iterations as u32,
                best: best as u32,
                player: eval.player as u32,
                value: eval.value,
                policy_coverage: coverage,
                ..sizes
            },
        );
        Ok(())
    })
}

#[cfg(test)]
#[path = "tests/unit/search.rs"]
mod tests;
