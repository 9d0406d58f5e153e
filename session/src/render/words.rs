//! What an action does and what the game waits for, in words, for people: the labels of
//! `play --human` and of the page of `carcassonne serve`. The base game's words are here;
//! each set's are in its module ([`crate::sets`]).

use crate::sets::SETS;
use carcassonne::action::ActionKind;
use carcassonne::game::{Game, Phase};

/// The words of the action kinds of the base game and of the sets without a session
/// module (the Abbot's).
const ACTION_WORDS: &[(ActionKind, &str)] = &[
    (ActionKind::PlaceTile, "place the tile"),
    (ActionKind::Deploy, "deploy"),
    (ActionKind::ReturnAbbot, "take the abbot back"),
    (ActionKind::Pass, "pass"),
    (ActionKind::Draw, "draw"),
];

/// The words of the base game's phases (a tile's placement names the tile).
const PHASE_WORDS: &[(Phase, &str)] = &[
    (Phase::Draw, "the tile drawn"),
    (Phase::Deploy, "deploy a figure, or pass"),
    (Phase::GameOver, "nothing: the game is over"),
];

/// An action kind in words (`place the tile`, `move the count`); a kind without words
/// reads as its record name.
///
/// ```
/// use carcassonne::action::ActionKind;
/// use carcassonne_session::render::action_words;
/// assert_eq!(action_words(ActionKind::Pass), "pass");
/// ```
pub fn action_words(kind: ActionKind) -> &'static str {
    ACTION_WORDS
        .iter()
        .chain(SETS.iter().flat_map(|m| m.action_words()))
        .find(|(k, _)| *k == kind)
        .map_or(kind.name(), |(_, words)| words)
}

/// What `game` waits for, in words (its [`Phase`]: `place the tile BASE-D`); a phase
/// without words reads as its name.
pub fn phase_words(game: &Game) -> String {
    let phase = game.phase();
    if phase == Phase::PlaceTile {
        return format!(
            "place the tile {}",
            game.tile_in_hand().map_or("", |t| t.id())
        );
    }
    PHASE_WORDS
        .iter()
        .chain(SETS.iter().flat_map(|m| m.phase_words()))
        .find(|(p, _)| *p == phase)
        .map_or_else(|| phase.name().to_string(), |(_, words)| words.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every action kind and every phase has its words once: in the base list or in
    /// one set's module.
    #[test]
    fn every_kind_and_phase_has_words_once() {
        for &kind in ActionKind::ALL {
            let n = ACTION_WORDS
                .iter()
                .chain(SETS.iter().flat_map(|m| m.action_words()))
                .filter(|(k, _)| *k == kind)
                .count();
            assert_eq!(n, 1, "{kind:?}");
        }
        for phase in Phase::ALL {
            let n = PHASE_WORDS
                .iter()
                .chain(SETS.iter().flat_map(|m| m.phase_words()))
                .filter(|(p, _)| *p == phase)
                .count();
            assert_eq!(n, usize::from(phase != Phase::PlaceTile), "{phase:?}");
        }
    }
}
