//! The Princess & the Dragon in the observation schema: the tiles' symbols (volcano,
//! dragon, magic portal, princess; filled by the base section's tile loop), where the
//! dragon and the fairy stand, the dragon's flight (PD4–PD8, PD15).

use super::observe::Writer;
use super::schema::{global_offset, plane_index, Live, Row, Section};
use carcassonne::game::Phase;
use carcassonne::rules::princess_dragon::DRAGON_STEPS;
use carcassonne::tiles::{Symbols, TileSet};

const IN_PLAY: Live = Live::Set(TileSet::PrincessDragon);

/// The Princess & the Dragon's rows.
pub const SECTION: Section = Section {
    key: "princess-and-dragon",
    title: "The Princess & the Dragon",
    planes: &[
        Row::symbol(
            "volcano",
            Symbols::VOLCANO,
            "1 if the tile shows a volcano (PD1)",
        ),
        Row::symbol(
            "dragon-symbol",
            Symbols::DRAGON,
            "1 if the tile shows the dragon symbol (PD4)",
        ),
        Row::symbol(
            "magic-portal",
            Symbols::MAGIC_PORTAL,
            "1 if the tile shows a magic portal (PD12)",
        ),
        Row::symbol(
            "princess",
            Symbols::PRINCESS,
            "1 if the tile shows a princess (PD9)",
        ),
        Row::new("dragon", &[], "1 where the dragon stands").live(IN_PLAY),
        Row::new("fairy", &[], "1 where the fairy stands").live(IN_PLAY),
        Row::new(
            "dragon-visited",
            &[],
            "1 on tiles visited by the dragon's current flight (PD6)",
        )
        .live(IN_PLAY),
    ],
    globals: &[
        Row::new("dragon-on-board", &[], "1 if the dragon is on the board").live(IN_PLAY),
        Row::new("fairy-on-board", &[], "1 if the fairy is on the board").live(IN_PLAY),
        Row::new(
            "dragon-steps-left",
            &[],
            "steps left in the current flight / 6 (0 outside a flight)",
        )
        .live(IN_PLAY),
    ],
    ids: &[],
    // Dragon steps, and the portal, fairy and princess on another tile.
    names_squares: IN_PLAY,
    write,
};

const DRAGON: usize = plane_index("dragon");
const FAIRY: usize = plane_index("fairy");
const DRAGON_VISITED: usize = plane_index("dragon-visited");
const DRAGON_ON_BOARD: usize = global_offset("dragon-on-board");
const FAIRY_ON_BOARD: usize = global_offset("fairy-on-board");
const DRAGON_STEPS_LEFT: usize = global_offset("dragon-steps-left");

fn write(w: &mut Writer<'_>) {
    let game = w.game;
    let dragon = game.dragon();
    let fairy = game.fairy();
    if let Some(pos) = dragon {
        w.mark(DRAGON, pos);
    }
    if let Some((pos, _)) = fairy {
        w.mark(FAIRY, pos);
    }
    if game.phase() == Phase::DragonFlight {
        for pos in game.flight_visited() {
            w.mark(DRAGON_VISITED, pos);
        }
    }
    w.flag(DRAGON_ON_BOARD, dragon.is_some());
    w.flag(FAIRY_ON_BOARD, fairy.is_some());
    if let Some(steps) = game.flight_steps() {
        let left = DRAGON_STEPS.saturating_sub(steps) as f32 / DRAGON_STEPS as f32;
        w.global(DRAGON_STEPS_LEFT, left);
    }
}
