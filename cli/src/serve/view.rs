//! What the page is given: the JSON of a game's state, of the setup form's options, and
//! of an MCTS bot's view of a decision. Everything the page shows comes from here; the
//! page adds no rule of its own.

use super::Entry;
use crate::choices::{self, Choice};
use crate::table::{self, Seat};
use carcassonne::config::{Edition, Figure, RuleSwitches};
use carcassonne::tiles::catalogue;
use carcassonne::{Game, Pos, TileSet};
use carcassonne_session::mcts::Evaluation;
use carcassonne_session::render::{self, PLAYER_COLOURS, PLAYER_COLOUR_NAMES};
use serde_json::{json, Value};

/// The last move, as the page shows it.
#[derive(Clone, Debug)]
pub struct LastMove {
    /// Who moved.
    pub seat: usize,
    /// Whether a bot moved.
    pub by_bot: bool,
    /// The move in words.
    pub text: String,
    /// What it scored and which figures came back, in words.
    pub events: Vec<String>,
    /// The tiles it placed: placement indices `from..to`.
    pub tiles: (usize, usize),
    /// The points it scored: `{seat, points, what, pos}` each (`pos`: a tile of the
    /// scored feature), for the page to show over the board.
    pub scores: Vec<Value>,
}

/// The score events of `game` from index `from` on, as [`LastMove::scores`] lists them.
pub fn scores_since(game: &Game, from: usize) -> Vec<Value> {
    game.events()
        .get(from..)
        .unwrap_or(&[])
        .iter()
        .map(|e| {
            json!({
                "seat": e.player,
                "points": e.points,
                "what": e.kind.name(),
                "pos": pos_json(e.at.map(|(p, _)| p)),
            })
        })
        .collect()
}

/// An MCTS bot's view of its last decision among several actions.
#[derive(Clone, Debug)]
pub struct BotView {
    /// The bot's seat.
    pub seat: usize,
    /// The turn it decided in.
    pub turn: usize,
    /// Its search.
    pub evaluation: Evaluation,
}

/// Bot strengths the setup form offers (any other spec may be typed).
const BOT_PRESETS: [(&str, &str); 8] = [
    ("random", "random: any legal move"),
    ("greedy", "greedy: the best points this turn"),
    (
        "heuristic",
        "heuristic: greedy, ties broken as a club player would",
    ),
    ("mcts:200", "MCTS, quick (200 iterations)"),
    ("mcts:1000", "MCTS (1000 iterations)"),
    ("mcts:5000", "MCTS, strong (5000 iterations)"),
    ("mcts:2000:threads=2", "MCTS, 2 threads (2000 iterations)"),
    (
        "net",
        "learned network (2-player base game only; wins 57 % against mcts:150)",
    ),
];

/// The name of a set as people write it, from its documentation (`The Princess & the
/// Dragon`).
fn set_title(set: TileSet) -> String {
    let doc = set.doc().trim();
    let doc = doc.split(" (`").next().unwrap_or(doc);
    doc.trim_end_matches('.').to_string()
}

/// The options of the setup form.
pub fn options() -> Value {
    let defaults = RuleSwitches::default().to_json();
    let rules: Vec<Value> = RuleSwitches::switches()
        .into_iter()
        .map(|(key, values)| {
            json!({ "key": key, "values": values, "default": defaults.get(key).cloned().unwrap_or(Value::Null) })
        })
        .collect();
    json!({
        "sets": TileSet::ALL.iter().map(|s| json!({
            "key": s.key(),
            "title": set_title(*s),
            "required": *s == TileSet::Base,
        })).collect::<Vec<_>>(),
        "rules": rules,
        "editions": Edition::ALL.iter().map(|e| e.name()).collect::<Vec<_>>(),
        "default_edition": Edition::default().name(),
        "players": { "min": 2, "max": carcassonne::config::MAX_PLAYERS },
        "bots": BOT_PRESETS.iter().map(|(spec, label)| json!({ "spec": spec, "label": label })).collect::<Vec<_>>(),
        "colours": PLAYER_COLOURS,
        "colour_names": PLAYER_COLOUR_NAMES,
        "max_bot": { "iterations": super::MAX_BOT_ITERATIONS, "millis": super::MAX_BOT_MILLIS },
    })
}

/// A game in the list of games.
pub fn summary(id: &str, entry: &Entry) -> Value {
    let game = entry.table.game();
    json!({
        "id": id,
        "setup": crate::setup::describe(game.config()),
        "seats": entry.table.seats().iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        "turn": game.turns().len(),
        "over": game.is_terminal(),
        "scores": game.scores(),
    })
}

/// A square as JSON.
fn pos_json(pos: Option<Pos>) -> Value {
    pos.map_or(Value::Null, |p| json!([p.x, p.y]))
}

/// A point of a square as JSON, rounded to a tenth.
fn point_json(point: Option<(f64, f64)>) -> Value {
    point.map_or(Value::Null, |(x, y)| {
        json!([(x * 10.0).round() / 10.0, (y * 10.0).round() / 10.0])
    })
}

/// One choice as JSON: its index `i` in the legal list, its line, its kind, its words,
/// its square and, on a placed tile, the spot of the feature or corner it names.
fn choice_json(game: &Game, i: usize, line: usize, c: &Choice) -> Value {
    let spec = c.action.kind().spec();
    json!({
        "i": i,
        "line": line,
        "kind": spec.name,
        "label": c.label(),
        "text": c.describe(),
        "detail": c.detail(),
        "pos": pos_json(c.pos),
        "empty": c.pos.is_some_and(|p| !game.board().is_placed(p)),
        "spot": point_json(c.spot(game)),
        "rot": c.rotation().map(|r| r.quarter_turns()),
        "bid": c.bid(),
        "fields": c.fields.iter().map(|f| json!({
            "name": f.spec.name,
            "kind": format!("{:?}", f.spec.kind),
            "text": f.text,
            "value": f.value.to_string(),
        })).collect::<Vec<_>>(),
    })
}

/// The view of an MCTS search of a decision of `game` (`current`: the decision the game
/// waits for, whose choices the top moves then name by index): the value for the
/// deciding seat and the most visited actions with their shares.
pub fn evaluation(game: &Game, eval: &Evaluation, bot: &str, current: bool) -> Value {
    let legal = game.legal();
    let top: Vec<Value> = eval
        .top(8)
        .into_iter()
        .filter(|a| a.visits > 0)
        .map(|a| {
            let c = Choice::of(game, a.action);
            json!({
                "text": c.describe(),
                "share": a.share,
                "visits": a.visits,
                "mean": a.mean_reward,
                "pos": pos_json(c.pos),
                "spot": point_json(c.spot(game)),
                "rot": c.rotation().map(|r| r.quarter_turns()),
                "choice": if current { legal.iter().position(|l| *l == a.action) } else { None },
            })
        })
        .collect();
    json!({
        "seat": eval.player,
        "bot": bot,
        "value": eval.value,
        "iterations": eval.iterations,
        "top": top,
    })
}

/// The whole state of a game, as the page draws it.
pub fn state(id: &str, entry: &Entry) -> Value {
    let table = &entry.table;
    let game = table.game();
    let deciding_human = table.human_to_play();
    // The choices are a person's to click: none while a bot decides.
    let choices = if deciding_human.is_some() {
        table.choices()
    } else {
        Vec::new()
    };
    let lines = choices::lines(&choices);
    let mut line_of = vec![0usize; choices.len()];
    for (n, line) in lines.iter().enumerate() {
        for &i in &line.choices {
            line_of[i] = n;
        }
    }
    let empty: Vec<Pos> = {
        let mut v: Vec<Pos> = Vec::new();
        for c in &choices {
            if let Some(p) = c.pos {
                if !game.board().is_placed(p) && !v.contains(&p) {
                    v.push(p);
                }
            }
        }
        v
    };
    let new_tiles = entry.last.as_ref().map_or(0..0, |m| m.tiles.0..m.tiles.1);
    let board = render::board_svg_interactive(game, &empty, new_tiles);
    let seats: Vec<Value> = table
        .seats()
        .iter()
        .enumerate()
        .map(|(s, seat)| {
            json!({
                "seat": s,
                "name": table::seat_name(s),
                "colour": PLAYER_COLOURS[s % PLAYER_COLOURS.len()],
                "colour_name": PLAYER_COLOUR_NAMES[s % PLAYER_COLOUR_NAMES.len()],
                "who": seat.to_string(),
                "human": *seat == Seat::Human,
                "score": game.scores()[s],
                "supply": Figure::ALL.iter().map(|&f| (f, game.supply(s, f))).filter(|(_, n)| *n > 0)
                    .map(|(f, n)| json!({ "figure": f.name(), "count": n })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let counts = game.remaining_tiles();
    let remaining: Vec<Value> = catalogue()
        .kinds()
        .filter_map(|k| {
            let n = counts.get(k.index()).copied().unwrap_or(0);
            (n > 0).then(|| json!([k.id(), n]))
        })
        .collect();
    let undo = table.can_undo();
    let bot_view = entry.bot_view.as_ref().map(|v| {
        let mut view = evaluation(
            game,
            &v.evaluation,
            &table.seats()[v.seat].to_string(),
            false,
        );
        view["turn"] = json!(v.turn);
        view
    });
    json!({
        "id": id,
        "version": table.version(),
        "setup": crate::setup::describe(game.config()),
        "over": game.is_terminal(),
        "winners": if game.is_terminal() { game.winners() } else { Vec::new() },
        "turn": game.turns().len(),
        "tiles_left": game.tiles_left(),
        "phase": game.phase().name(),
        "prompt": render::phase_words(game),
        "to_play": if game.is_terminal() { Value::Null } else { json!(game.to_play()) },
        "human": deciding_human,
        "tile": game.tile_in_hand().map(|t| t.id()),
        "seats": seats,
        "board": board,
        "tile_size": render::TILE_SIZE,
        "choices": choices.iter().enumerate().map(|(i, c)| choice_json(game, i, line_of[i], c)).collect::<Vec<_>>(),
        "lines": lines.iter().map(|l| json!({
            "choices": l.choices,
            "text": choices::line_text(&choices, l),
        })).collect::<Vec<_>>(),
        "undo": { "ok": undo.is_ok(), "why": undo.err().map(|e| e.to_string()) },
        "last": entry.last.as_ref().map(|m| json!({
            "seat": m.seat,
            "by_bot": m.by_bot,
            "text": m.text,
            "events": m.events,
            "scores": m.scores,
        })),
        "bot_view": bot_view,
        "notes": carcassonne_session::render::notes(game),
        "log": entry.log,
        "remaining": remaining,
    })
}
