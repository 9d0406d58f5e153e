//! The observation writer.

use super::decision::with_table;
use super::globals::phase_index;
use super::stats::FeatureStats;
use super::{
    check_len, global, plane, DecisionTable, EncodeError, EncoderSpec, WindowOrigin, FIGURE_KINDS,
};
use carcassonne::config::Figure;
use carcassonne::features::NodeId;
use carcassonne::game::{Game, Phase};
use carcassonne::geometry::Pos;
use carcassonne::rules::princess_dragon::DRAGON_STEPS;
use carcassonne::scoring::feature_value;
use carcassonne::tiles::{FeatureKind, Symbols, Terrain, TileSet, NO_FEATURE};

/// Writes the observation of the current decision (no pending focus) for `player`.
/// See [`encode_observation_at`].
pub fn encode_observation(
    game: &Game,
    player: usize,
    spec: EncoderSpec,
    planes: &mut [u8],
    globals: &mut [f32],
) -> Result<WindowOrigin, EncodeError> {
    encode_observation_at(game, spec, None, player, planes, globals)
}

/// Writes the observation for `player` into `planes` (`u8 [C·W·W]`) and `globals`
/// (`f32 [G]`), with `focus` the tile picked by a pending `CELL` id, if any. Returns the
/// window origin. Buffers of the wrong length or a seat outside the game are refused
/// before anything is written.
pub fn encode_observation_at(
    game: &Game,
    spec: EncoderSpec,
    focus: Option<Pos>,
    player: usize,
    planes: &mut [u8],
    globals: &mut [f32],
) -> Result<WindowOrigin, EncodeError> {
    check_observation(game, spec, player, planes, globals)?;
    with_table(game, spec, |t| {
        encode_observation_with(game, t, focus, player, planes, globals)
    })
}

fn check_observation(
    game: &Game,
    spec: EncoderSpec,
    player: usize,
    planes: &[u8],
    globals: &[f32],
) -> Result<(), EncodeError> {
    check_len("planes", planes.len(), spec.planes_len())?;
    check_len("globals", globals.len(), spec.num_globals())?;
    let n = game.num_players();
    if player >= n {
        return Err(EncodeError::Player { player, players: n });
    }
    Ok(())
}

/// Writes the observation like [`encode_observation_at`], reading the legal actions and
/// the window of the current decision from `table` (which must have been refreshed for
/// this state of `game`).
pub fn encode_observation_with(
    game: &Game,
    table: &DecisionTable,
    focus: Option<Pos>,
    player: usize,
    planes: &mut [u8],
    globals: &mut [f32],
) -> Result<WindowOrigin, EncodeError> {
    let spec = table.spec;
    check_observation(game, spec, player, planes, globals)?;
    let n = game.num_players();
    let frame = table.frame;
    let origin = frame.origin;
    let ww = spec.w() * spec.w();
    let focus_pos = focus.or(frame.placed);
    planes.fill(0);
    globals.fill(0.0);
    let rel = |seat: usize| (seat + n - player) % n;

    // Tiles.
    let stats = FeatureStats::new(game);
    let features = game.features();
    let board = game.board();
    let mut set = |p: usize, c: usize, v: u8| planes[p * ww + c] = v;
    for placement in board.placements() {
        let Some(c) = origin.cell_index(spec, placement.pos) else {
            continue;
        };
        let def = placement.kind.def();
        let oriented = def.oriented(placement.rot);
        set(plane::OCCUPIED, c, 1);
        for s in 0..4 {
            match placement.sides[s] {
                Terrain::City => set(plane::CITY + s, c, 1),
                Terrain::Road => set(plane::ROAD + s, c, 1),
                Terrain::River => set(plane::RIVER + s, c, 1),
                Terrain::Field | Terrain::Abbey | Terrain::Carcassonne => {}
            }
            let here = oriented.segment_feature[s * 3 + 1];
            if here == NO_FEATURE {
                continue;
            }
            let kind = def.features[here as usize].kind;
            let linear = kind != FeatureKind::Field;
            if linear && oriented.segment_feature[((s + 1) % 4) * 3 + 1] == here {
                set(plane::LINK_NEXT + s, c, 1);
            }
            if linear && s < 2 && oriented.segment_feature[(s + 2) * 3 + 1] == here {
                set(plane::LINK_OPPOSITE + s, c, 1);
            }
            let root = features.root(placement.node_base + here as NodeId);
            let (own, best) = stats.strengths(root, player);
            set(plane::SIDE_OWN + s, c, own);
            set(plane::SIDE_BEST_OPPONENT + s, c, best);
            if linear {
                let open = features.node(root).open.min(255) as u8;
                set(plane::SIDE_OPEN + s, c, open);
                set(plane::SIDE_VALUE + s, c, stats.value(game, root));
            }
        }
        let mut pennants = 0u8;
        let (mut c_own, mut c_best, mut c_value) = (0u8, 0u8, 0u8);
        for (i, f) in def.features.iter().enumerate() {
            pennants = pennants.saturating_add(f.pennants);
            if f.kind.is_cloister() {
                set(
                    if f.kind == FeatureKind::Garden {
                        plane::GARDEN
                    } else {
                        plane::MONASTERY
                    },
                    c,
                    1,
                );
                let root = features.root(placement.node_base + i as NodeId);
                let (own, best) = stats.strengths(root, player);
                c_own = c_own.max(own);
                c_best = c_best.max(best);
                let around = placement.surrounded_by;
                let incomplete = (around < 8).then_some(around);
                let value = feature_value(f.kind, 0, 0, incomplete, game.rules());
                c_value = c_value.max(value.clamp(0, 255) as u8);
            }
        }
        set(plane::PENNANTS, c, pennants);
        set(plane::CENTRE_OWN, c, c_own);
        set(plane::CENTRE_BEST_OPPONENT, c, c_best);
        set(plane::CENTRE_VALUE, c, c_value);
        for (sym, p) in [
            (Symbols::ABBEY, plane::ABBEY),
            (Symbols::VOLCANO, plane::VOLCANO),
            (Symbols::DRAGON, plane::DRAGON_SYMBOL),
            (Symbols::MAGIC_PORTAL, plane::MAGIC_PORTAL),
            (Symbols::PRINCESS, plane::PRINCESS),
            (Symbols::PIG_HERD, plane::PIG_HERD),
            (Symbols::SHRINE, plane::SHRINE),
            (Symbols::BAZAAR, plane::BAZAAR),
        ] {
            if def.has(sym) {
                set(p, c, 1);
            }
        }
    }
    for (i, placement) in board.placements().iter().enumerate() {
        let Some(c) = origin.cell_index(spec, placement.pos) else {
            continue;
        };
        if let Some(axis) = game.bridge_at(i) {
            set(plane::BRIDGE + axis as usize, c, 1);
        }
        if placement.kind.def().set == TileSet::Count {
            set(plane::CITY_OF_CARCASSONNE, c, 1);
        }
    }
    for (owner, (pos, local), scored) in game.castles() {
        if scored {
            continue;
        }
        let p = if owner as usize == player {
            plane::CASTLE_OWN
        } else {
            plane::CASTLE_OPPONENT
        };
        let index = board.index_at(pos).expect("a castle on a tile");
        let root = features.root(board.placement(index).node_base + local as NodeId);
        for part in features.parts(root) {
            let on = board.placement(features.node(part).placement as usize).pos;
            if let Some(c) = origin.cell_index(spec, on) {
                set(p, c, 1);
            }
        }
    }
    if let Some(last) = board.placements().last() {
        if let Some(c) = origin.cell_index(spec, last.pos) {
            set(plane::LAST_PLACED, c, 1);
        }
    }
    if let Some(c) = focus_pos.and_then(|p| origin.cell_index(spec, p)) {
        set(plane::FOCUS, c, 1);
    }
    for f in game.board_figures() {
        let pos = board.placement(f.placement as usize).pos;
        if let Some(c) = origin.cell_index(spec, pos) {
            let p = plane::FIGURES + rel(f.owner as usize) * FIGURE_KINDS + f.figure.index();
            planes[p * ww + c] = planes[p * ww + c].saturating_add(1);
        }
    }
    let mut set = |p: usize, c: usize, v: u8| planes[p * ww + c] = v;
    if let Some(c) = game.dragon().and_then(|p| origin.cell_index(spec, p)) {
        set(plane::DRAGON, c, 1);
    }
    if let Some(c) = game.fairy().and_then(|(p, _)| origin.cell_index(spec, p)) {
        set(plane::FAIRY, c, 1);
    }
    if game.phase() == Phase::DragonFlight {
        for pos in game.flight_visited() {
            if let Some(c) = origin.cell_index(spec, pos) {
                set(plane::DRAGON_VISITED, c, 1);
            }
        }
    }

    // Legal placements and offered cells (the first step of a decision only).
    if focus.is_none() {
        for (rot, c) in table.offered_cells() {
            match rot {
                Some(rot) => set(plane::LEGAL_PLACEMENT + rot.quarter_turns() as usize, c, 1),
                None => set(plane::CELL_TARGET, c, 1),
            }
        }
    }

    // Globals.
    let g = globals;
    let phase = game.phase();
    g[global::PHASE + phase_index(phase)] = 1.0;
    g[global::FOCUS_PENDING] = f32::from(u8::from(focus.is_some()));
    let deciding = !matches!(phase, Phase::GameOver | Phase::Draw);
    g[global::IS_TO_PLAY] = f32::from(u8::from(deciding && game.to_play() == player));
    let scores = game.scores();
    let mut best_other = i32::MIN;
    for (seat, &score) in scores.iter().enumerate() {
        let r = rel(seat);
        g[global::SEAT_PRESENT + r] = 1.0;
        g[global::SCORE + r] = score as f32 / 100.0;
        if seat != player {
            best_other = best_other.max(score);
        }
        for f in Figure::ALL {
            g[global::SUPPLY + r * FIGURE_KINDS + f.index()] = game.supply(seat, f) as f32;
        }
        g[global::ABBEYS + r] = game.abbeys_left(seat) as f32;
    }
    g[global::SCORE_LEAD] = (scores[player] - best_other) as f32 / 100.0;
    if phase != Phase::GameOver {
        g[global::TURN_PLAYER + rel(game.turn_player())] = 1.0;
    }
    if deciding {
        g[global::TO_PLAY + rel(game.to_play())] = 1.0;
    }
    g[global::TILES_LEFT] = game.tiles_left() as f32 / 100.0;
    g[global::DRAGON_ON_BOARD] = f32::from(u8::from(game.dragon().is_some()));
    g[global::FAIRY_ON_BOARD] = f32::from(u8::from(game.fairy().is_some()));
    if let Some(steps) = game.flight_steps() {
        g[global::DRAGON_STEPS_LEFT] =
            DRAGON_STEPS.saturating_sub(steps) as f32 / DRAGON_STEPS as f32;
    }
    for (i, set) in TileSet::ALL.into_iter().enumerate() {
        g[global::SETS + i] = f32::from(u8::from(game.has_set(set)));
    }
    g[global::FARMERS] = f32::from(u8::from(game.rules().farmers));
    if let Some(p) = focus_pos.and_then(|p| board.at(p)) {
        g[global::FOCUS_ROTATION + p.rot.quarter_turns() as usize] = 1.0;
        g[global::FOCUS_IN_WINDOW] = f32::from(u8::from(origin.cell(spec, p.pos).is_some()));
        g[global::focus_tile() + p.kind.index()] = 1.0;
    }
    g[global::ORIGIN_X] = origin.x as f32;
    g[global::ORIGIN_Y] = origin.y as f32;
    if let Some(q) = game.count_quarter() {
        g[global::COUNT_QUARTER + q as usize] = 1.0;
    }
    for &(q, owner, _) in game.quarter_figures() {
        g[global::QUARTER_FIGURES + 4 * rel(owner as usize) + q as usize] += 1.0;
    }
    let (king, robber) = game.titles();
    if let Some(p) = king {
        g[global::KING + rel(p)] = 1.0;
    }
    if let Some(p) = robber {
        g[global::ROBBER + rel(p)] = 1.0;
    }
    if let Some(t) = game.tile_in_hand() {
        g[global::tile_in_hand() + t.index()] = 1.0;
    }
    let rem = global::remaining();
    for (i, &count) in game.remaining_tiles().iter().enumerate() {
        g[rem + i] = count as f32;
    }
    if game.has_set(TileSet::BridgesCastlesBazaars) {
        for seat in 0..n {
            let r = rel(seat);
            g[global::BRIDGES_LEFT + r] = game.bridges_left(seat) as f32;
            g[global::CASTLES_LEFT + r] = game.castles_left(seat) as f32;
            if let Some(t) = game.bazaar_tile_of(seat) {
                g[global::BAZAAR_HOLDS + r] = 1.0;
                if seat == player {
                    g[global::bazaar_own() + t.index()] = 1.0;
                }
            }
        }
        for t in game.bazaar_offer().iter().flatten() {
            g[global::bazaar_offer() + t.index()] += 1.0;
        }
        if let Some((tile, bid, bidder, selector)) = game.bazaar_auction() {
            g[global::bazaar_picked() + tile.index()] = 1.0;
            g[global::BAZAAR_BID] = bid as f32;
            g[global::BAZAAR_BIDDER + rel(bidder as usize)] = 1.0;
            g[global::BAZAAR_SELECTOR + rel(selector as usize)] = 1.0;
        } else if matches!(game.phase(), Phase::BazaarSelect) {
            g[global::BAZAAR_SELECTOR + rel(game.to_play())] = 1.0;
        }
    }
    Ok(origin)
}
