//! The decision a person is asked to make, described for the terminal and the browser
//! from the game's legal actions and the action schema alone
//! ([`carcassonne::action::SCHEMA`]): no list of decisions per set.
//!
//! Every legal action becomes a [`Choice`]: the square it names (its `x` and `y`), if
//! any, and its other fields, each with the words that show it (`turned 1`,
//! `city c1`, `bid 5`) and the words a person may type for it (`1`, `c1`, `city`). A
//! field is shown by its [`FieldKind`], so a new action kind made of known field kinds
//! needs nothing here; a new field kind is one arm of [`field_text`] (the compiler asks
//! for it), a new action kind at most its words in its set's session module
//! ([`render::action_words`]).
//!
//! [`lines`] numbers the choices for a list: one line each, except that actions which
//! differ only in a bid (BZ2: up to 31 of them per bazaar tile) share a line.
//! [`match_words`] finds the actions that typed words name, in the order of their
//! fields (`2 -1 1`: the tile at (2, -1) turned once; `A 1` with the square's letter;
//! `follower c1`; `pass`).

use carcassonne::action::{ActionKind, FieldKind, FieldSpec, FieldValue, Seat};
use carcassonne::{Action, Game, Pos, Rotation};
use carcassonne_session::render;

/// One legal action as a person reads and names it.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The action.
    pub action: Action,
    /// The square it names (its `x` and `y`), if it names one.
    pub pos: Option<Pos>,
    /// Its other fields, in schema order; an absent optional field (no bridge) is left
    /// out.
    pub fields: Vec<Field>,
}

/// One field of a [`Choice`].
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// Name and kind in the schema.
    pub spec: FieldSpec,
    /// The value.
    pub value: FieldValue,
    /// How it reads (`turned 1`, `follower`, `city c1`).
    pub text: String,
    /// The words, in lower case, that name it in typed input (`1`; `follower`;
    /// `c1`, `city`).
    pub words: Vec<String>,
}

impl Choice {
    /// The choice of `action`, legal in `game`.
    pub fn of(game: &Game, action: Action) -> Choice {
        let spec = action.kind().spec();
        let values = action.values();
        let values = values.as_slice();
        let mut pos = None;
        let mut fields = Vec::with_capacity(spec.fields.len());
        for (i, (field, value)) in spec.fields.iter().zip(values).enumerate() {
            match (field.kind, value) {
                (FieldKind::X, FieldValue::Int(x)) => {
                    if let Some(FieldValue::Int(y)) = values.get(i + 1) {
                        pos = Some(Pos::new(*x, *y));
                    }
                }
                (FieldKind::Y, _) => {}
                (_, FieldValue::Bridge(None)) => {}
                _ => {
                    let (text, words) = field_text(game, pos, *value);
                    fields.push(Field {
                        spec: *field,
                        value: *value,
                        text,
                        words,
                    });
                }
            }
        }
        Choice {
            action,
            pos,
            fields,
        }
    }

    /// What kind of action it is, in words ([`render::action_words`]).
    pub fn label(&self) -> &'static str {
        render::action_words(self.action.kind())
    }

    /// Its fields in words, without the square: `turned 1`, `follower on city c1`.
    pub fn detail(&self) -> String {
        let parts: Vec<&str> = self.fields.iter().map(|f| f.text.as_str()).collect();
        parts.join(", ")
    }

    /// The whole choice in words: `place the tile at (2, -1), turned 1`.
    pub fn describe(&self) -> String {
        let mut text = self.label().to_string();
        if let Some(pos) = self.pos {
            text.push_str(&format!(" at {pos}"));
        }
        let detail = self.detail();
        if !detail.is_empty() {
            text.push_str(if self.pos.is_some() { ", " } else { ": " });
            text.push_str(&detail);
        }
        text
    }

    /// The bid this choice makes, if it is a bid (a [`FieldKind::Bid`] field).
    pub fn bid(&self) -> Option<u32> {
        self.fields.iter().find_map(|f| match f.value {
            FieldValue::Bid(b) => Some(b),
            _ => None,
        })
    }

    /// Where on its square a figure would stand, for a choice that names a feature or a
    /// corner of a placed tile: a point of the square from `(0, 0)` to
    /// `(render::TILE_SIZE, render::TILE_SIZE)` ([`render::feature_spot`]).
    pub fn spot(&self, game: &Game) -> Option<(f64, f64)> {
        let pos = self.pos?;
        let placement = game
            .board()
            .index_at(pos)
            .map(|i| game.board().placement(i))?;
        self.fields.iter().find_map(|f| match f.value {
            FieldValue::Feature(local) | FieldValue::OptFeature(Some(local)) => {
                Some(render::feature_spot(placement.kind, placement.rot, local))
            }
            FieldValue::Corner(corner) => Some(render::corner_spot(corner)),
            _ => None,
        })
    }

    /// The local feature this choice names on the tile at its square, if any.
    pub fn feature(&self) -> Option<u8> {
        self.fields.iter().find_map(|f| match f.value {
            FieldValue::Feature(local) | FieldValue::OptFeature(Some(local)) => Some(local),
            _ => None,
        })
    }

    /// The rotation this choice names, if any.
    pub fn rotation(&self) -> Option<Rotation> {
        self.fields.iter().find_map(|f| match f.value {
            FieldValue::Rot(r) => Some(r),
            _ => None,
        })
    }
}

/// The choices of the current decision of `game`, in the game's legal order.
pub fn choices(game: &Game) -> Vec<Choice> {
    game.legal()
        .iter()
        .map(|&action| Choice::of(game, action))
        .collect()
}

/// The words of a field's value: how it reads, and what may be typed for it.
pub fn field_text(game: &Game, pos: Option<Pos>, value: FieldValue) -> (String, Vec<String>) {
    let lower = |s: &str| s.to_ascii_lowercase();
    match value {
        FieldValue::Int(v) => (v.to_string(), vec![v.to_string()]),
        FieldValue::Rot(r) => (
            format!("turned {}", r.quarter_turns()),
            vec![r.quarter_turns().to_string()],
        ),
        FieldValue::Figure(f) => (f.name().to_string(), vec![f.name().to_string()]),
        FieldValue::Feature(local) | FieldValue::OptFeature(Some(local)) => {
            let (kind_name, id) = feature_words(game, pos, local);
            (
                format!("on {kind_name} {id}"),
                vec![lower(&id), kind_name.to_string()],
            )
        }
        FieldValue::OptFeature(None) => ("on the tile".into(), vec!["tile".into()]),
        FieldValue::Corner(c) => (format!("corner {}", c.name()), vec![lower(c.name())]),
        FieldValue::Tile(t) => (t.id().to_string(), vec![lower(t.id())]),
        FieldValue::Quarter(q) => (format!("{} quarter", q.name()), vec![lower(q.name())]),
        FieldValue::Step(s) => (format!("({})", s.name()), vec![lower(s.name())]),
        FieldValue::Bridge(None) => ("no bridge".into(), vec![]),
        FieldValue::Bridge(Some(b)) => (
            format!("with a bridge at {} {}", b.pos, b.axis.name()),
            vec!["bridge".into()],
        ),
        FieldValue::Axis(a) => (format!("axis {}", a.name()), vec![lower(a.name())]),
        FieldValue::Bid(b) => (format!("bid {b}"), vec![b.to_string()]),
        FieldValue::Choice(c) => (c.name().to_string(), vec![lower(c.name())]),
        FieldValue::FlockChoice(c) => (c.name().to_string(), vec![lower(c.name())]),
        FieldValue::Token(t) => (t.name().to_string(), vec![lower(t.name())]),
        FieldValue::Seat(Seat(seat)) => (
            format!("to {}", seat_name(seat as usize)),
            vec![seat.to_string()],
        ),
    }
}

/// A seat as people read it: `seat 1 (blue)`.
pub fn seat_name(seat: usize) -> String {
    let colours = render::PLAYER_COLOUR_NAMES;
    format!("seat {seat} ({})", colours[seat % colours.len()])
}

/// A feature of the tile at `pos`: its kind's name and its catalogue id (`city`, `c1`).
fn feature_words(game: &Game, pos: Option<Pos>, local: u8) -> (&'static str, String) {
    let Some((pos, index)) = pos.and_then(|p| Some((p, game.board().index_at(p)?))) else {
        return ("feature", local.to_string());
    };
    let kind = game
        .feature_kind_at(pos, local)
        .map_or("bridge", |k| k.name());
    (kind, game.feature_name(index, local).to_string())
}

/// One numbered line of a list of choices: the choices it stands for (indices into the
/// list), more than one only for bids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Indices of its choices, in the legal order.
    pub choices: Vec<usize>,
}

/// The lines of a list of choices: one per choice, except that neighbouring choices of
/// one kind that differ only in their bid share a line.
pub fn lines(choices: &[Choice]) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    for (i, c) in choices.iter().enumerate() {
        if c.bid().is_some() {
            if let Some(last) = out.last_mut() {
                let first = &choices[last.choices[0]];
                if same_but_bid(first, c) {
                    last.choices.push(i);
                    continue;
                }
            }
        }
        out.push(Line { choices: vec![i] });
    }
    out
}

/// Whether two choices differ at most in their bid.
fn same_but_bid(a: &Choice, b: &Choice) -> bool {
    a.action.kind() == b.action.kind()
        && a.pos == b.pos
        && a.fields.len() == b.fields.len()
        && a.fields
            .iter()
            .zip(&b.fields)
            .all(|(x, y)| x.spec.kind == FieldKind::Bid || x.value == y.value)
}

/// How a line reads: the choice's detail, or for a line of bids the range of bids.
pub fn line_text(choices: &[Choice], line: &Line) -> String {
    let first = &choices[line.choices[0]];
    if line.choices.len() == 1 {
        return first.describe();
    }
    let (lo, hi) = bid_range(choices, &line.choices);
    let others: Vec<&str> = first
        .fields
        .iter()
        .filter(|f| f.spec.kind != FieldKind::Bid)
        .map(|f| f.text.as_str())
        .collect();
    let mut text = first.label().to_string();
    if !others.is_empty() {
        text.push_str(": ");
        text.push_str(&others.join(", "));
    }
    text.push_str(&format!(", bid {lo} to {hi}"));
    text
}

/// The lowest and highest bid among choices `indices` (`(0, 0)` without bids).
pub fn bid_range(choices: &[Choice], indices: &[usize]) -> (u32, u32) {
    let bids = indices.iter().filter_map(|&i| choices[i].bid());
    let lo = bids.clone().min().unwrap_or(0);
    (lo, bids.max().unwrap_or(0))
}

/// Letters for the empty squares that choices name, where a tile goes (`A` ... `Z`, then
/// `AA` ...), in the order the squares first appear: the squares lettered on the board
/// shown with the decision. A square with a tile on it is named by its coordinates only
/// (no board is shown for a decision on placed tiles).
pub fn square_letters(game: &Game, choices: &[Choice]) -> Vec<(Pos, String)> {
    let mut out: Vec<(Pos, String)> = Vec::new();
    for c in choices {
        if let Some(pos) = c.pos.filter(|p| !game.board().is_placed(*p)) {
            if !out.iter().any(|(p, _)| *p == pos) {
                let label = letters(out.len());
                out.push((pos, label));
            }
        }
    }
    out
}

/// The `n`-th label of the sequence `A` ... `Z`, `AA`, `AB` ...
fn letters(mut n: usize) -> String {
    let mut label = Vec::new();
    loop {
        label.push(b'A' + (n % 26) as u8);
        if n < 26 {
            break;
        }
        n = n / 26 - 1;
    }
    label.reverse();
    String::from_utf8(label).unwrap_or_default()
}

/// Splits typed input into lower-case words: blanks, commas and parentheses separate
/// them (`(2, -1)` is `2`, `-1`).
pub fn words(input: &str) -> Vec<String> {
    input
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')'))
        .filter(|w| !w.is_empty())
        .map(|w| w.to_ascii_lowercase())
        .collect()
}

/// The indices of the choices among `candidates` that `words` name: each word names the
/// action's kind (a word of its record name, `pass`, `bid`), its square (its letter
/// among `squares`, or the `x` then the `y`), or one of its fields, in the order of the
/// action's fields (square first); words may leave fields out.
pub fn match_words(
    choices: &[Choice],
    candidates: &[usize],
    squares: &[(Pos, String)],
    words: &[String],
) -> Vec<usize> {
    candidates
        .iter()
        .copied()
        .filter(|&i| matches_choice(&choices[i], squares, words))
        .collect()
}

/// One slot of a choice that a typed word may fill.
enum Slot<'a> {
    Kind(ActionKind),
    Letter(&'a str),
    Coordinate(i32),
    Field(&'a Field),
}

fn matches_choice(choice: &Choice, squares: &[(Pos, String)], words: &[String]) -> bool {
    let mut slots = vec![Slot::Kind(choice.action.kind())];
    if let Some(pos) = choice.pos {
        if let Some((_, letter)) = squares.iter().find(|(p, _)| *p == pos) {
            slots.push(Slot::Letter(letter));
        }
        slots.push(Slot::Coordinate(pos.x));
        slots.push(Slot::Coordinate(pos.y));
    }
    slots.extend(choice.fields.iter().map(Slot::Field));
    let fills = |slot: &Slot, word: &str| match slot {
        Slot::Kind(kind) => {
            let name = kind.name();
            word == name || name.split('_').any(|part| part == word)
        }
        Slot::Letter(letter) => word.eq_ignore_ascii_case(letter),
        Slot::Coordinate(v) => word == v.to_string(),
        Slot::Field(f) => f.words.iter().any(|w| w == word),
    };
    // Greedy: each word fills the first slot after the previous word's that it fits,
    // which finds an assignment in field order whenever one exists.
    let mut next = 0;
    for word in words {
        match (next..slots.len()).find(|&k| fills(&slots[k], word)) {
            Some(k) => {
                // A letter stands for both coordinates.
                next = match slots[k] {
                    Slot::Letter(_) => k + 3,
                    _ => k + 1,
                };
            }
            None => return false,
        }
    }
    true
}

#[cfg(test)]
#[path = "tests/unit/choices.rs"]
mod tests;
