//! Replaying a record: draws forced, every action applied, every turn's scores
//! compared, the first divergence reported.

use super::*;

/// The path of `turns`.
const TURNS: At<'static> = At::Key(&At::Top, "turns");

/// A score vector of `players` scores, each a 32-bit integer (never truncated).
pub(super) fn scores_of(v: &Value, path: &At<'_>, players: usize) -> Result<Vec<i32>, RecordError> {
    let list = as_array(v, path)?;
    if list.len() != players {
        return Err(err(
            path,
            format!("{} scores for {players} players", list.len()),
        ));
    }
    list.iter()
        .enumerate()
        .map(|(i, s)| {
            if let Some(n) = s.as_i64().and_then(|n| i32::try_from(n).ok()) {
                return Ok(n);
            }
            let p = path.index(i);
            let n = as_int(s, &p)?;
            i32::try_from(n).map_err(|_| {
                err(
                    p,
                    format!("{n} is out of range {}..={}", i32::MIN, i32::MAX),
                )
            })
        })
        .collect()
}

/// The first `n` legal actions of `game`, for divergence messages.
pub(super) fn legal_summary(game: &Game, n: usize) -> String {
    let legal = game.legal_actions();
    let mut shown: Vec<String> = legal.iter().take(n).map(|l| l.to_string()).collect();
    if legal.len() > n {
        shown.push("...".into());
    }
    shown.join(", ")
}

pub(crate) fn diverged(
    turn: usize,
    action: Option<usize>,
    expected: impl Into<String>,
    actual: impl Into<String>,
) -> ReplayError {
    ReplayError::Diverged(Box::new(Divergence {
        turn,
        action,
        expected: expected.into(),
        actual: actual.into(),
        scores: None,
        waiting: None,
    }))
}

/// A score mismatch after turn `turn` (`usize::MAX`: the final scores).
pub(super) fn scores_diverged(
    turn: usize,
    expected: &[i32],
    engine: &[i32],
    detail: String,
) -> ReplayError {
    let what = if turn == usize::MAX { "" } else { "scores " };
    ReplayError::Diverged(Box::new(Divergence {
        turn,
        action: None,
        expected: format!("{what}{expected:?}"),
        actual: format!("{what}{engine:?}{detail}"),
        scores: Some((expected.to_vec(), engine.to_vec())),
        waiting: None,
    }))
}

/// Reads one record's JSON text strictly: at most [`MAX_RECORD_BYTES`], duplicate keys
/// refused, nesting bounded ([`json::parse_strict`]). A UTF-8 byte-order mark (U+FEFF,
/// which some editors write at the start of a file) is skipped.
///
/// ```
/// use carcassonne_session::record::parse_record_text;
/// let text = "{\"format\":\"carcassonne-record\"}";
/// let marked = format!("\u{feff}{text}");
/// assert_eq!(parse_record_text(&marked), parse_record_text(text));
/// assert!(parse_record_text(text).is_ok());
/// ```
pub fn parse_record_text(text: &str) -> Result<Value, RecordError> {
    let text = text.strip_prefix(BYTE_ORDER_MARK).unwrap_or(text);
    if text.len() > MAX_RECORD_BYTES {
        return Err(err(
            "",
            format!(
                "the record is {} bytes long; at most {MAX_RECORD_BYTES} are accepted",
                text.len()
            ),
        ));
    }
    parse_strict(text).map_err(|e| err(e.path, e.message))
}

/// Replays a record given as JSON text (read by [`parse_record_text`]).
pub fn replay_json(text: &str) -> Result<Game, ReplayError> {
    replay(&parse_record_text(text)?)
}

/// Loads a record given as JSON text to play on (see [`load`]).
pub fn load_json(text: &str, chance: Option<ChanceMode>) -> Result<Loaded, ReplayError> {
    load(&parse_record_text(text)?, chance)
}

/// Replays a record ([`replay`]) and restores the state its `resume` object saved: the
/// game draws from then on with the generator of the game that wrote the record, so a
/// game in sampled-chance mode continues with the same draws. `chance` chooses the
/// chance mode; `None` keeps the record's (sampled when it has no `resume` object, the
/// generator then seeded with `setup.seed`).
///
/// ```
/// use carcassonne::{Game, GameConfig};
/// use carcassonne_session::record;
/// let mut game = Game::new(GameConfig::new(2)).unwrap();
/// for _ in 0..10 {
///     let a = game.legal_actions()[0];
///     game.apply(a).unwrap();
/// }
/// let text = record::to_json(&game, "saved").unwrap();
/// let mut loaded = record::load_json(&text, None).unwrap().game;
/// while !game.is_terminal() {
///     let a = game.legal_actions()[0];
///     game.apply(a).unwrap();
///     loaded.apply(a).unwrap();
///     assert_eq!(loaded.state_hash(), game.state_hash());
/// }
/// ```
pub fn load(record: &Value, chance: Option<ChanceMode>) -> Result<Loaded, ReplayError> {
    let (mut game, resume) = replay_with_resume(record)?;
    if let Some(r) = &resume {
        game.set_rng(r.rng.clone());
    }
    let mode = chance
        .or(resume.as_ref().map(|r| r.chance))
        .unwrap_or(ChanceMode::Sampled);
    game.set_chance_mode(mode);
    Ok(Loaded { game, resume })
}

/// The record's `id`, if it has one.
pub fn record_id(record: &Value) -> Option<&str> {
    record.get("id").and_then(Value::as_str)
}

/// A record's `id` for messages ([`json::shown`]): as it is, or quoted and escaped when
/// it is long or holds a character that does not print as itself (an escape sequence).
pub fn shown_id(id: &str) -> String {
    json::shown(id).into_owned()
}

/// The optional boolean `key` of a turn (`false` when absent).
pub(super) fn flag(o: &Map<String, Value>, key: &str, path: &At<'_>) -> Result<bool, ReplayError> {
    match o.get(key) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(v) => Err(err(
            path.key(key),
            format!("expected true or false, found {}", describe(v)),
        )
        .into()),
    }
}

/// Replays a record: forces its draws, applies its actions, compares every turn's
/// scores and the final scores. Returns the replayed game, in explicit-chance mode (a
/// `resume` object is checked, not applied: see [`load`]).
pub fn replay(record: &Value) -> Result<Game, ReplayError> {
    replay_with_resume(record).map(|(game, _)| game)
}

/// [`replay`], returning the record's `resume` object too. In named steps: the top
/// level ([`read_head`]); per turn its entry ([`read_turn`]), then either the discard of
/// the previous turn's second tile ([`check_second_discard_entry`]) or the turn begun
/// ([`begin_turn`]), its actions applied ([`apply_turn_actions`]) and the turn closed
/// ([`end_turn`]); then the end of the game ([`finish_game`]).
pub(super) fn replay_with_resume(record: &Value) -> Result<(Game, Option<Resume>), ReplayError> {
    let top = as_object(record, &At::Top)?;
    let head = read_head(top)?;
    let players = head.players;
    let mut game = head.game;
    for (t, turn) in head.turns.iter().enumerate() {
        let entry = read_turn(turn, t, players)?;
        if game.turns().get(t).is_some_and(|l| l.second_discard) {
            check_second_discard_entry(&game, t, &entry)?;
            continue;
        }
        let bazaar = begin_turn(&mut game, t, &entry)?;
        let mut offer = bazaar.iter();
        apply_turn_actions(&mut game, t, &entry, &mut offer)?;
        let unfinished = t + 1 == head.turns.len() && head.final_scores.is_none();
        if end_turn(&mut game, t, &entry, &mut offer, unfinished)? == TurnClose::Saved {
            return Ok((game, head.resume));
        }
    }
    finish_game(&mut game, top, head.turns.len(), head.final_scores)?;
    Ok((game, head.resume))
}

/// What the top level of a record says before its turns are replayed.
struct Head<'r> {
    /// The game of `setup`, in explicit-chance mode, before any turn.
    game: Game,
    players: usize,
    resume: Option<Resume>,
    turns: &'r [Value],
    final_scores: Option<Vec<i32>>,
}

/// Reads and checks the top level of a record: `format`, its keys, `id` and `notes`,
/// `version`, `setup` (the game is set up from it), `resume`, `turns` (at most
/// [`MAX_TURNS`]), `final_scores` and the shape of `final_events`.
fn read_head(top: &Map<String, Value>) -> Result<Head<'_>, ReplayError> {
    let format = as_str(field(top, "format", &At::Top)?, &At::Top.key("format"))?;
    if format != FORMAT {
        return Err(err(
            "format",
            format!("expected {FORMAT:?}, found {}", echo(format)),
        )
        .into());
    }
    check_table(top, RECORD_KEYS, &At::Top)?;
    for key in ["id", "notes"] {
        if let Some(v) = top.get(key) {
            as_str(v, &At::Top.key(key))?;
        }
    }
    let version = int_field(top, "version", &At::Top)?;
    if version != VERSION as i64 {
        return Err(err(
            "version",
            format!("version {version} is not supported (only {VERSION})"),
        )
        .into());
    }
    let config = config_from_setup(field(top, "setup", &At::Top)?)?;
    let resume = top.get("resume").map(Resume::from_json).transpose()?;
    let players = config.players as usize;
    let game = Game::with_chance(config, ChanceMode::Explicit).map_err(|e| {
        let e = e.under("setup");
        err(e.field, e.message)
    })?;
    let turns = as_array(field(top, "turns", &At::Top)?, &TURNS)?;
    if turns.len() > MAX_TURNS {
        return Err(err(
            "turns",
            format!("{} turns; a record holds at most {MAX_TURNS}", turns.len()),
        )
        .into());
    }
    let final_scores = match top.get("final_scores") {
        Some(fs) => Some(scores_of(fs, &At::Top.key("final_scores"), players)?),
        None => None,
    };
    if let Some(events) = top.get("final_events") {
        let at = At::Top.key("final_events");
        for (i, e) in as_array(events, &at)?.iter().enumerate() {
            check_event(e, &at.index(i), players)?;
        }
    }
    Ok(Head {
        game,
        players,
        resume,
        turns,
        final_scores,
    })
}

/// One entry of `turns`, its fields read and checked for their shape (not yet against
/// the game).
struct TurnEntry<'r> {
    /// `turns[t]`, for messages.
    path: At<'static>,
    fields: &'r Map<String, Value>,
    player: usize,
    draw: Option<TileKind>,
    discarded: bool,
    builder_bonus: bool,
    actions: &'r [Value],
    scores: Vec<i32>,
}

/// Reads entry `t` of `turns`: its keys, `player`, `draw`, `discarded`, `builder_bonus`,
/// `actions`, `scores` and the shape of its `events`.
fn read_turn(turn: &Value, t: usize, players: usize) -> Result<TurnEntry<'_>, ReplayError> {
    let path = TURNS.index(t);
    let o = as_object(turn, &path)?;
    check_table(o, TURN_KEYS, &path)?;
    let player = small_int(o, "player", &path, 0..=players as i64 - 1)? as usize;
    let draw = match field(o, "draw", &path)? {
        Value::Null => None,
        v => match v.as_str().and_then(|id| catalogue().by_id(id)) {
            Some(tile) => Some(tile),
            None => Some(tile_by_id(
                as_str(v, &path.key("draw"))?,
                &path.key("draw"),
            )?),
        },
    };
    let discarded = flag(o, "discarded", &path)?;
    let builder_bonus = flag(o, "builder_bonus", &path)?;
    let actions = match field(o, "actions", &path)? {
        Value::Array(actions) => actions,
        v => as_array(v, &path.key("actions"))?,
    };
    let scores = scores_of(field(o, "scores", &path)?, &path.key("scores"), players)?;
    if let Some(events) = o.get("events") {
        let epath = path.key("events");
        for (i, e) in as_array(events, &epath)?.iter().enumerate() {
            check_event(e, &epath.index(i), players)?;
        }
    }
    Ok(TurnEntry {
        path,
        fields: o,
        player,
        draw,
        discarded,
        builder_bonus,
        actions,
        scores,
    })
}

/// R6, B5: entry `t` is the discard of the previous turn's second tile, which the engine
/// logged after that turn: the same player and tile, no actions, the same scores.
fn check_second_discard_entry(game: &Game, t: usize, entry: &TurnEntry) -> Result<(), ReplayError> {
    check_second_discard(
        game,
        t,
        (
            entry.player,
            entry.draw,
            entry.discarded,
            entry.builder_bonus,
        ),
    )?;
    if !entry.actions.is_empty() {
        return Err(diverged(
            t,
            Some(0),
            "an action",
            "a discard entry has no actions",
        ));
    }
    let actual = &game.turns()[t].scores[..entry.scores.len()];
    if actual != entry.scores.as_slice() {
        return Err(scores_diverged(t, &entry.scores, actual, String::new()));
    }
    Ok(())
}

/// Starts turn `t` as its entry says: an extra turn the record does not take is declined
/// (TB4), then the entry's tile is drawn (a bazaar's tile is in hand already, BZ4; an
/// abbey the player could place is declined first) or, with no draw, the player must be
/// deciding on an abbey. Returns the tiles of the entry's `bazaar`, in order.
fn begin_turn(game: &mut Game, t: usize, entry: &TurnEntry) -> Result<Vec<TileKind>, ReplayError> {
    let (path, player, draw) = (&entry.path, entry.player, entry.draw);
    if !entry.builder_bonus {
        decline_unrecorded_extra_turn(game)
            .map_err(|e| diverged(t, None, "the next turn", e.to_string()))?;
    }
    if game.is_terminal() {
        return Err(diverged(t, None, "another turn", "the game is over"));
    }
    let bazaar_at = path.key("bazaar");
    let bazaar: Vec<TileKind> = match entry.fields.get("bazaar") {
        None => Vec::new(),
        Some(v) => v
            .as_array()
            .ok_or_else(|| err(bazaar_at, "expected an array of tile ids"))?
            .iter()
            .enumerate()
            .map(|(i, id)| {
                let p = bazaar_at.index(i);
                tile_by_id(as_str(id, &p)?, &p)
            })
            .collect::<Result<_, _>>()?,
    };
    // BZ4: the tile the player got at a bazaar is in his hand without a draw (and is
    // already discarded when it fits nowhere, B5).
    if game.tile_from_bazaar(t) {
        let got = game.turns()[t].draw;
        if draw != got || game.turn_player() != player {
            return Err(diverged(
                t,
                None,
                format!(
                    "player {player} draws {}",
                    draw.map_or("nothing (an abbey)", |k| k.id())
                ),
                format!(
                    "player {} places the bazaar tile {}",
                    game.turn_player(),
                    got.map_or("?", |k| k.id())
                ),
            ));
        }
        check_discard(game, t, entry.discarded)?;
    } else if let Some(tile) = draw {
        if game.phase() == Phase::Abbey && game.to_play() == player && !game.in_end_round() {
            game.apply(Action::Pass)
                .map_err(|e| diverged(t, None, "decline the abbey", e.to_string()))?;
        }
        if game.phase() != Phase::Draw || game.turn_player() != player {
            return Err(diverged(
                t,
                None,
                format!("player {player} draws {}", tile.id()),
                format!("waits for {:?} by player {}", game.phase(), game.to_play()),
            ));
        }
        game.apply(Action::Draw { tile }).map_err(|_| {
            diverged(
                t,
                None,
                format!("draw {}", tile.id()),
                "that tile cannot be drawn now (pile stage or PD3)",
            )
        })?;
        check_discard(game, t, entry.discarded)?;
    } else if game.phase() != Phase::Abbey || game.to_play() != player {
        return Err(diverged(
            t,
            None,
            format!("player {player} places an abbey"),
            format!("waits for {:?} by player {}", game.phase(), game.to_play()),
        ));
    }
    Ok(bazaar)
}

/// Applies the actions of turn `t`, each after the bazaar's offer drawn so far
/// (`offer`), with the chance outcomes it names; a forced `pass` the engine took by
/// itself is skipped.
fn apply_turn_actions(
    game: &mut Game,
    t: usize,
    entry: &TurnEntry,
    offer: &mut std::slice::Iter<'_, TileKind>,
) -> Result<(), ReplayError> {
    let actions = entry.path.key("actions");
    for (a, av) in entry.actions.iter().enumerate() {
        let apath = &actions.index(a);
        lay_out_bazaar(game, t, offer, false)?;
        let (action, decider) = action_from_json(game, av, apath)?;
        if let (Action::PlaceTile { .. }, Some(named)) = (action, av.get("tile")) {
            // R6: a second placement in the turn names the tile it places.
            let tpath = apath.key("tile");
            let tile = tile_by_id(as_str(named, &tpath)?, &tpath)?;
            if game.tile_in_hand() != Some(tile) {
                return Err(diverged(
                    t,
                    Some(a),
                    format!("place {} ({action})", tile.id()),
                    format!(
                        "the tile in hand is {}",
                        game.tile_in_hand().map_or("none", |k| k.id())
                    ),
                ));
            }
        }
        let open = game.turns().len() == t + 1 && game.turn_in_progress();
        if open && game.second_tile_in_hand() && !matches!(action, Action::PlaceTile { .. }) {
            return Err(second_tile_fits(game, t, Some(a), format!("{action}")));
        }
        if action == Action::Pass && (!open || !game.is_legal(Action::Pass)) {
            // A forced decision the engine took by itself.
            continue;
        }
        if !open {
            return Err(diverged(
                t,
                Some(a),
                format!("{action}"),
                "the turn is already over",
            ));
        }
        if let Some(d) = decider {
            if d as usize != game.to_play() {
                return Err(waiting_in(
                    game,
                    diverged(
                        t,
                        Some(a),
                        format!("player {d} decides {action}"),
                        format!("player {} decides", game.to_play()),
                    ),
                ));
            }
        }
        if let Err(e) = game.apply(action) {
            return Err(waiting_in(
                game,
                diverged(
                    t,
                    Some(a),
                    format!("{action}"),
                    format!("{e}; legal: [{}]", legal_summary(game, 12)),
                ),
            ));
        }
        // The chance outcomes that the sets in play record inside an action (HS1–HS3).
        for m in sets::SETS {
            if game.has_set(m.set()) {
                m.replay_action_chance(game, av, (t, a), apath)?;
            }
        }
    }
    Ok(())
}

/// How a turn's replay ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TurnClose {
    /// The turn is over as its entry says.
    Closed,
    /// The record of an unfinished game ends inside this turn.
    Saved,
}

/// Closes turn `t` after its actions: the rest of the bazaar's offer is drawn (an
/// `unfinished` game's last turn may stop part way), the turn must be over (or, in the
/// last turn of an unfinished game, end there), its extra turn (TB4) must be the one the
/// entry says, and its scores the entry's.
fn end_turn(
    game: &mut Game,
    t: usize,
    entry: &TurnEntry,
    offer: &mut std::slice::Iter<'_, TileKind>,
    unfinished: bool,
) -> Result<TurnClose, ReplayError> {
    let scores = &entry.scores;
    // An unfinished game saved while its bazaar's offer was being drawn (explicit
    // chance) waits for the next of those draws.
    lay_out_bazaar(game, t, offer, unfinished)?;
    if offer.len() > 0 {
        return Err(diverged(
            t,
            None,
            format!("a bazaar with {} more tiles", offer.len()),
            "no more bazaar tiles are drawn",
        ));
    }
    let open = game.turn_in_progress() && game.turns().len() == t + 1;
    if open && unfinished {
        if game.scores() != scores.as_slice() {
            return Err(scores_diverged(t, scores, game.scores(), String::new()));
        }
        return Ok(TurnClose::Saved);
    }
    if open && game.second_tile_in_hand() {
        return Err(second_tile_fits(game, t, None, "the turn ends".into()));
    }
    if open {
        return Err(waiting_in(
            game,
            diverged(
                t,
                None,
                "the turn ends",
                format!(
                    "waits for {:?} by player {}: [{}]",
                    game.phase(),
                    game.to_play(),
                    legal_summary(game, 8)
                ),
            ),
        ));
    }
    let extra_turn = game.turns()[t].extra_turn;
    if extra_turn != entry.builder_bonus {
        let turn = |extra| {
            if extra {
                "an extra turn (TB4)"
            } else {
                "a turn of its own"
            }
        };
        return Err(diverged(
            t,
            None,
            turn(entry.builder_bonus),
            turn(extra_turn),
        ));
    }
    let actual = &game.turns()[t].scores[..scores.len()];
    if actual != scores.as_slice() {
        let events: Vec<String> = {
            let log = &game.turns()[t];
            game.events()[log.events.0 as usize..log.events.1 as usize]
                .iter()
                .map(|e| format!("p{}+{} {}", e.player, e.points, e.kind.name()))
                .collect()
        };
        let detail = format!(" (events: {})", events.join(", "));
        return Err(scores_diverged(t, scores, actual, detail));
    }
    Ok(TurnClose::Closed)
}

/// After the last of `turns` turns: when the record goes on (final scores or final
/// actions), extra turns and end-of-game abbeys it does not list are declined (AM4);
/// `final_actions` are applied (their divergences reported after the last turn); a
/// record with `final_scores` must end the game with them.
fn finish_game(
    game: &mut Game,
    top: &Map<String, Value>,
    turns: usize,
    final_scores: Option<Vec<i32>>,
) -> Result<(), ReplayError> {
    let finals = match top.get("final_actions") {
        Some(v) => Some(as_array(v, &At::Top.key("final_actions"))?),
        None => None,
    };
    if final_scores.is_some() || finals.is_some_and(|f| !f.is_empty()) {
        decline_unrecorded_extra_turn(game)
            .map_err(|e| diverged(turns, None, "the game ends", e.to_string()))?;
        // Declines of an end-of-game abbey that the record does not list, when the
        // record goes on after the last turn (the record of an unfinished game stops
        // where it was written: AM4).
        while game.phase() == Phase::Abbey && game.in_end_round() {
            game.apply(Action::Pass)
                .map_err(|e| diverged(turns, None, "the game ends", e.to_string()))?;
        }
    }
    if let Some(finals) = finals {
        // Divergences in final actions are reported after the last turn.
        let t = turns;
        let finals_at = At::Top.key("final_actions");
        for (a, av) in finals.iter().enumerate() {
            let (action, decider) = action_from_json(game, av, &finals_at.index(a))?;
            if game.is_terminal() {
                return Err(diverged(
                    t,
                    Some(a),
                    format!("{action}"),
                    "the game is over",
                ));
            }
            if let Some(d) = decider {
                if d as usize != game.to_play() {
                    return Err(diverged(
                        t,
                        Some(a),
                        format!("player {d} decides {action}"),
                        format!("player {} decides", game.to_play()),
                    ));
                }
            }
            if let Err(e) = game.apply(action) {
                return Err(diverged(
                    t,
                    Some(a),
                    format!("{action}"),
                    format!("{e}; legal: [{}]", legal_summary(game, 12)),
                ));
            }
        }
    }
    if let Some(expected) = final_scores {
        if !game.is_terminal() {
            return Err(diverged(
                usize::MAX,
                None,
                format!("final scores {expected:?}"),
                format!(
                    "the game goes on ({:?} by player {}, {} tiles left)",
                    game.phase(),
                    game.to_play(),
                    game.tiles_left()
                ),
            ));
        }
        if game.scores() != expected.as_slice() {
            return Err(scores_diverged(
                usize::MAX,
                &expected,
                game.scores(),
                String::new(),
            ));
        }
    }
    Ok(())
}

/// BZ1: while turn `t` waits for the tiles of a bazaar's offer, draws them from the
/// record's `bazaar` list; when the list runs out, stops there if `may_stop` (the end of
/// an unfinished game), else diverges.
pub(super) fn lay_out_bazaar(
    game: &mut Game,
    t: usize,
    offer: &mut std::slice::Iter<'_, TileKind>,
    may_stop: bool,
) -> Result<(), ReplayError> {
    // (Not the turn's own draw after a declined abbey, AM1.)
    while game.phase() == Phase::Draw
        && game.turns().len() == t + 1
        && game.turn_in_progress()
        && !game.abbey_declined_before_draw()
    {
        let Some(&tile) = offer.next() else {
            if may_stop {
                return Ok(());
            }
            return Err(diverged(
                t,
                None,
                "no bazaar",
                "a bazaar is held: the record lists no tiles for its offer",
            ));
        };
        game.apply(Action::Draw { tile }).map_err(|_| {
            diverged(
                t,
                None,
                format!("lay out {} at the bazaar", tile.id()),
                "that tile cannot be drawn now",
            )
        })?;
    }
    Ok(())
}

/// The tile in hand at turn `t` is discarded exactly when the record says so: a tile that
/// fits only with a bridge is discarded by the player (BR2, the `pass` offered then), one
/// that fits nowhere by the engine (B5).
pub(super) fn check_discard(game: &mut Game, t: usize, discarded: bool) -> Result<(), ReplayError> {
    if discarded && game.phase() == Phase::PlaceTile && game.is_legal(Action::Pass) {
        // BR2: the player discarded a tile that fitted only with a bridge.
        game.apply(Action::Pass)
            .map_err(|e| diverged(t, None, "discard the tile", e.to_string()))?;
    }
    let engine_discarded = game.turns().get(t).is_some_and(|l| l.discarded);
    if discarded != engine_discarded {
        return Err(diverged(
            t,
            None,
            if discarded {
                "the tile is discarded"
            } else {
                "the tile is placed"
            },
            if engine_discarded {
                "it fits nowhere (B5)"
            } else {
                "it fits somewhere"
            },
        ));
    }
    Ok(())
}

/// R6, B5: record entry `t`, (`player`, `draw`, `discarded`, `builder_bonus`), must be
/// the discard that the engine logged there: the second tile of the turn before, which
/// fitted nowhere.
fn check_second_discard(
    game: &Game,
    t: usize,
    (player, draw, discarded, builder_bonus): (usize, Option<TileKind>, bool, bool),
) -> Result<(), ReplayError> {
    let log = &game.turns()[t];
    let tile = log.draw.map_or("?", |k| k.id());
    if player != log.player as usize || draw != log.draw || !discarded {
        return Err(diverged(
            t,
            None,
            format!(
                "player {player} {} {}",
                if discarded { "discards" } else { "draws" },
                draw.map_or("nothing (an abbey)", |k| k.id())
            ),
            format!(
                "player {} discards {tile}, the second tile of the turn before, which fits \
                 nowhere (R6, B5): the record must say so with {{\"player\": {}, \"draw\": \
                 \"{tile}\", \"discarded\": true, \"actions\": []}}",
                log.player, log.player
            ),
        ));
    }
    if builder_bonus != log.extra_turn {
        return Err(diverged(
            t,
            None,
            format!("builder_bonus {builder_bonus}"),
            format!(
                "builder_bonus {} (the discard belongs to the turn before)",
                log.extra_turn
            ),
        ));
    }
    Ok(())
}

/// R6: the record goes on with `expected` while the turn's second tile, which fits, waits
/// to be placed.
fn second_tile_fits(game: &Game, t: usize, a: Option<usize>, expected: String) -> ReplayError {
    let tile = game.tile_in_hand().map_or("?", |k| k.id());
    waiting_in(
        game,
        diverged(
            t,
            a,
            expected,
            format!(
                "{tile} is placed in this turn, after the first tile (R6): it fits (at {}), \
                 so it is not discarded",
                legal_summary(game, 4)
            ),
        ),
    )
}

/// TB4 with the pile empty: the extra turn comes only for the abbey, and a record has no
/// entry for it when the abbey was declined. Where the record goes on with something else
/// (another entry, or the end of the game), the engine's extra turn declines it.
fn decline_unrecorded_extra_turn(game: &mut Game) -> Result<(), carcassonne::game::ActionError> {
    if game.phase() == Phase::Abbey
        && game.in_extra_turn()
        && game.tiles_left() == 0
        && !game.in_end_round()
    {
        game.apply(Action::Pass)?;
    }
    Ok(())
}
