//! Rewards per player and step, and rank-based outcomes.

use super::{check_len, EncodeError};

carcassonne::named_enum! {
    /// How rewards are computed (`docs/interfaces.md`, rewards).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub enum RewardMode {
        /// Points gained in the step (final scoring counts in the last step).
        #[default]
        Score = "score",
        /// Own points gained minus the mean of the opponents' points gained.
        ScoreDiff = "score-diff",
        /// At the end only: rank-based in [-1, 1] (first 1, last -1, ties share the mean
        /// of their ranks' values); 0 before the end.
        Outcome = "outcome",
        /// At the end only: 1 for a win, -1 for a loss; a win shared by `k` players
        /// (B17) is `1/k` of a win, `2/k - 1` (0 for a two-way tie); 0 before the end.
        WinLoss = "win-loss",
    }
}

/// Writes the reward of every player for one step into `out[..players]`, from the scores
/// `before` and `after` the step and whether the game ended with it. Slices shorter than
/// the number of players `after.len()` are refused.
pub fn step_rewards(
    mode: RewardMode,
    before: &[i32],
    after: &[i32],
    terminal: bool,
    out: &mut [f32],
) -> Result<(), EncodeError> {
    let n = after.len();
    check_len("before", before.len(), n)?;
    if out.len() < n {
        return Err(EncodeError::BufferSize {
            buffer: "rewards",
            expected: n,
            got: out.len(),
        });
    }
    match mode {
        RewardMode::Score => {
            for p in 0..n {
                out[p] = (after[p] - before[p]) as f32;
            }
        }
        RewardMode::ScoreDiff => {
            let total: i32 = (0..n).map(|p| after[p] - before[p]).sum();
            for p in 0..n {
                let own = after[p] - before[p];
                let others = (total - own) as f32 / (n.max(2) - 1) as f32;
                out[p] = own as f32 - others;
            }
        }
        RewardMode::Outcome => {
            if terminal {
                outcome_values(after, &mut out[..n]);
            } else {
                out[..n].fill(0.0);
            }
        }
        RewardMode::WinLoss => {
            if terminal {
                win_loss_values(after, &mut out[..n]);
            } else {
                out[..n].fill(0.0);
            }
        }
    }
    Ok(())
}

/// Rank-based outcome in [-1, 1] for final `scores`: the best gets 1, the worst -1,
/// linear in between; tied players share the mean of their ranks' values.
pub fn outcome_values(scores: &[i32], out: &mut [f32]) {
    let n = scores.len();
    if n < 2 {
        out.iter_mut().take(n).for_each(|o| *o = 0.0);
        return;
    }
    for p in 0..n {
        let better = scores.iter().filter(|&&s| s > scores[p]).count();
        let tied = scores.iter().filter(|&&s| s == scores[p]).count();
        // Ranks better..better+tied-1 (0 = first); value of rank r is 1 - 2r/(n-1).
        let mean_rank = better as f32 + (tied - 1) as f32 / 2.0;
        out[p] = 1.0 - 2.0 * mean_rank / (n - 1) as f32;
    }
}

/// Win or loss for final `scores`: every player with the highest score shares the win
/// (B17); a player's share `s` (1, `1/k` for a win shared by `k`, or 0) becomes `2s - 1`,
/// so a win is 1, a loss -1 and a two-way tie 0.
pub fn win_loss_values(scores: &[i32], out: &mut [f32]) {
    let n = scores.len();
    let Some(&best) = scores.iter().max() else {
        return;
    };
    let winners = scores.iter().filter(|&&s| s == best).count() as f32;
    for p in 0..n {
        let share = if scores[p] == best {
            1.0 / winners
        } else {
            0.0
        };
        out[p] = 2.0 * share - 1.0;
    }
}
