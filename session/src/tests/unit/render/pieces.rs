//! Unit tests of `render::pieces`, included by `pieces.rs` so they see its private items.

use super::*;
use crate::render::test_games::{every_set, played};
use carcassonne::config::GameConfig;
use carcassonne::tiles::TileSet;

fn pieces(game: &Game, replay: bool) -> Vec<Piece> {
    pieces_of(game, replay).iter().map(|p| p.piece).collect()
}

fn game_of(sets: &[TileSet], abbot: u8) -> Game {
    let mut config = GameConfig::new(2);
    config.sets = sets.to_vec();
    config.figures = carcassonne::config::Figures::default_for(&config.sets);
    config.figures.abbot = abbot;
    Game::new(config).unwrap()
}

#[test]
fn every_piece_is_declared_once() {
    let every = every_piece();
    for (i, p) in every.iter().enumerate() {
        assert!(
            every[i + 1..]
                .iter()
                .all(|q| q.piece != p.piece && q.name != p.name),
            "{:?} declared twice",
            p.piece
        );
    }
    // The shared list and the sets' legends together declare every piece, in the order
    // of `Piece`, which is the legend order.
    assert_eq!(every.len(), Piece::NewTile as usize + 1);
    for (i, p) in every.iter().enumerate() {
        assert_eq!(p.piece as usize, i, "{:?} out of order", p.piece);
    }
    // Two pieces drawn on the text board never share a glyph.
    let glyphs: Vec<&str> = every.iter().filter_map(|p| p.glyph).collect();
    for (i, g) in glyphs.iter().enumerate() {
        assert!(!glyphs[i + 1..].contains(g), "glyph {g} twice");
    }
}

/// A base game (B1) has the base pieces and none of an expansion's.
#[test]
fn a_base_game_has_only_base_pieces() {
    let base = pieces(&game_of(&[TileSet::Base], 0), false);
    for piece in [
        Piece::Field,
        Piece::City,
        Piece::Road,
        Piece::Monastery,
        Piece::Pennant,
        Piece::Follower,
    ] {
        assert!(base.contains(&piece), "{piece:?}");
    }
    for piece in [
        Piece::River,
        Piece::Volcano,
        Piece::MagicPortal,
        Piece::Dragon,
        Piece::Fairy,
        Piece::Abbot,
        Piece::Mayor,
        Piece::Abbey,
        Piece::CityOfCarcassonne,
        Piece::Count,
        Piece::King,
        Piece::Shrine,
        Piece::Bridge,
        Piece::Castle,
        Piece::Bazaar,
        Piece::NewTile,
    ] {
        assert!(!base.contains(&piece), "{piece:?} in a base game");
    }
    assert!(pieces(&game_of(&[TileSet::Base], 0), true).contains(&Piece::NewTile));
}

/// Each set brings its own pieces: the River its rivers and lakes (R1), The Princess &
/// the Dragon its volcanoes, portals, dragon and fairy (PD1, PD12, PD15), Abbey & Mayor
/// its figures and abbeys (AM1, AM5, AM6, AM10), the Royal Gift sets theirs (CC2,
/// KR1, KR2, CU1, BR1, CA1, BZ1), Inns & Cathedrals the big follower, inns and
/// cathedrals (IC1–IC3), and Hills & Sheep hills, vineyards, the shepherd, sheep and
/// wolves (HS1, HS3, HS5).
#[test]
fn each_set_brings_its_pieces() {
    let cases: [(&[TileSet], &[Piece]); 9] = [
        (
            &[TileSet::Base, TileSet::River1],
            &[Piece::River, Piece::RiverEnd],
        ),
        (
            &[TileSet::Base, TileSet::PrincessDragon],
            &[
                Piece::Volcano,
                Piece::MagicPortal,
                Piece::Dragon,
                Piece::Fairy,
            ],
        ),
        (
            &[TileSet::Base, TileSet::AbbeyMayor],
            &[
                Piece::Abbey,
                Piece::AbbeyWall,
                Piece::Mayor,
                Piece::Wagon,
                Piece::Barn,
            ],
        ),
        (
            &[TileSet::Base, TileSet::Count],
            &[Piece::CityOfCarcassonne, Piece::Count],
        ),
        (
            &[TileSet::Base, TileSet::KingRobber],
            &[Piece::King, Piece::RobberBaron],
        ),
        (&[TileSet::Base, TileSet::Cult], &[Piece::Shrine]),
        (
            &[TileSet::Base, TileSet::BridgesCastlesBazaars],
            // Two bazaar tiles show an inn (IC2).
            &[Piece::Bridge, Piece::Castle, Piece::Bazaar, Piece::Inn],
        ),
        (
            &[TileSet::Base, TileSet::InnsCathedrals],
            &[Piece::BigFollower, Piece::Inn, Piece::Cathedral],
        ),
        (
            &[TileSet::Base, TileSet::HillsSheep],
            &[
                Piece::Hill,
                Piece::Vineyard,
                Piece::Shepherd,
                Piece::Sheep,
                Piece::Wolf,
            ],
        ),
    ];
    let base = pieces(&game_of(&[TileSet::Base], 0), false);
    for (sets, brought) in cases {
        let with = pieces(&game_of(sets, 0), false);
        for piece in brought {
            assert!(with.contains(piece), "{sets:?}: {piece:?} missing");
        }
        // Nothing else new but what the set brings.
        for piece in &with {
            assert!(
                base.contains(piece) || brought.contains(piece),
                "{sets:?}: {piece:?} listed"
            );
        }
    }
    assert!(pieces(&game_of(&[TileSet::Base], 1), false).contains(&Piece::Abbot));
}

/// A finished game lists its pieces from the tiles it placed: the legend of a game of
/// every set has every piece but the replay's.
#[test]
fn a_game_of_every_set_has_every_piece() {
    let game = played(every_set(3), 4, 0);
    let all = pieces(&game, false);
    for p in every_piece().iter().filter(|p| p.piece != Piece::NewTile) {
        assert!(all.contains(&p.piece), "{:?}", p.piece);
    }
}

/// Every piece has a legend swatch in the SVG picture: those of a set's state drawn by its
/// module, the others by the shared `swatch`.
#[test]
fn every_piece_has_a_swatch() {
    for p in every_piece() {
        let mut out = String::new();
        crate::render::svg::swatch(&mut out, p.piece, 10.0, 20.0);
        assert!(
            out.starts_with('<') && out.len() > 20,
            "{:?}: {out:?}",
            p.piece
        );
    }
    for m in crate::sets::SETS {
        for p in m.legend() {
            assert!(!PIECES.iter().any(|q| q.piece == p.piece), "{:?}", p.piece);
        }
    }
}
