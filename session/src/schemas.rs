//! The engine's declarations that code generators turn into front-end code, in one plain
//! form: the action kinds (the Python action classes come from them) and the tables of
//! the expansions' state (the Python typed dicts). The Python package returns the same
//! rows (`carcassonne._core.action_schema()`, `state_schema()`), and the `front-end-schemas`
//! program prints them as JSON so that `tools/generate.py` needs no built package.
//!
//! ```
//! let actions = carcassonne_session::schemas::action_kinds();
//! let place = actions.iter().find(|k| k.0 == "place_tile").unwrap();
//! assert_eq!(place.1.iter().map(|f| f.0).take(3).collect::<Vec<_>>(), ["x", "y", "rot"]);
//! assert!(carcassonne_session::schemas::to_json().starts_with("{\"actions\":"));
//! ```

use carcassonne::rules::state;

/// One action kind: `(type name, [(field name, field kind), ...], names a player, doc)`.
pub type ActionKindRow = (
    &'static str,
    Vec<(&'static str, String)>,
    bool,
    &'static str,
);

/// Every action kind, in kind order; field kinds by their lower-case names (`x`, `rot`,
/// `figure`, `optfeature`, ...).
pub fn action_kinds() -> Vec<ActionKindRow> {
    carcassonne::action::SCHEMA
        .iter()
        .map(|k| {
            let fields = k
                .fields
                .iter()
                .map(|f| (f.name, format!("{:?}", f.kind).to_lowercase()))
                .collect();
            (k.name, fields, k.names_player, k.doc)
        })
        .collect()
}

/// One table of the expansions' state: `(name, expansion, rows, doc, [(column, kind,
/// optional, doc), ...])`, row counts (`one`, `optional`, `per-seat`, `many`) and column
/// kinds by name.
pub type StateTableRow = (
    &'static str,
    &'static str,
    &'static str,
    String,
    Vec<(&'static str, &'static str, bool, String)>,
);

/// Every table of the expansions' state, in the engine's order.
pub fn state_tables() -> Vec<StateTableRow> {
    state::tables()
        .iter()
        .map(|t| {
            let columns = t
                .columns
                .iter()
                .map(|c| (c.name, c.kind.name(), c.optional, c.description()))
                .collect();
            (t.name, t.expansion, t.rows.name(), t.description(), columns)
        })
        .collect()
}

/// Both schemas as one JSON object, `{"actions": [...], "state": [...]}`, each row an
/// array in the order of its tuple.
pub fn to_json() -> String {
    serde_json::json!({ "actions": action_kinds(), "state": state_tables() }).to_string()
}
