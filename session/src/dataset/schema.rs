//! The Arrow schema of each table (described column by column in `docs/dataset.md`).

use super::{SCHEMA_VERSION, TABLE_KEY, VERSION_KEY};
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef};
use std::collections::HashMap;
use std::sync::Arc;

/// A list of `item` (items not null).
pub(crate) fn list_of(item: DataType) -> DataType {
    DataType::List(Arc::new(Field::new("item", item, false)))
}

/// The struct of a sparse target: a flat id and its visit share.
pub(crate) fn target_fields() -> Fields {
    Fields::from(vec![
        Field::new("id", DataType::UInt32, false),
        Field::new("share", DataType::Float32, false),
    ])
}

/// The struct of a rule switch: its name and value as the record's setup writes it.
pub(crate) fn rule_fields() -> Fields {
    Fields::from(vec![
        Field::new("name", DataType::Utf8, false),
        Field::new("value", DataType::Utf8, false),
    ])
}

fn with_meta(table: &str, fields: Vec<Field>) -> SchemaRef {
    let meta = HashMap::from([
        (VERSION_KEY.to_string(), SCHEMA_VERSION.to_string()),
        (TABLE_KEY.to_string(), table.to_string()),
    ]);
    Arc::new(Schema::new_with_metadata(fields, meta))
}

/// The schema of table `table` (one of [`super::TABLES`]).
pub fn table_schema(table: &str) -> Option<SchemaRef> {
    let id = || Field::new("game_id", DataType::Utf8, false);
    let fields = match table {
        "games" => vec![
            id(),
            Field::new("players", DataType::UInt8, false),
            Field::new("sets", list_of(DataType::Utf8), false),
            Field::new("edition", DataType::Utf8, false),
            Field::new("rules", list_of(DataType::Struct(rule_fields())), false),
            Field::new("seed", DataType::UInt64, false),
            Field::new("seats", list_of(DataType::Utf8), false),
            Field::new("final_scores", list_of(DataType::Int32), false),
            Field::new("ranks", list_of(DataType::UInt8), false),
            Field::new("turns", DataType::UInt32, false),
            Field::new("actions", DataType::UInt32, false),
            Field::new("decisions", DataType::UInt32, false),
            Field::new("window", DataType::UInt16, true),
        ],
        "turns" => vec![
            id(),
            Field::new("turn", DataType::UInt32, false),
            Field::new("player", DataType::UInt8, false),
            Field::new("tile", DataType::Utf8, true),
            Field::new("x", DataType::Int32, true),
            Field::new("y", DataType::Int32, true),
            Field::new("rot", DataType::UInt8, true),
            Field::new("discarded", DataType::Boolean, false),
            Field::new("scores", list_of(DataType::Int32), false),
        ],
        "events" => vec![
            id(),
            Field::new("turn", DataType::UInt32, true),
            Field::new("player", DataType::UInt8, false),
            Field::new("kind", DataType::Utf8, false),
            Field::new("points", DataType::Int32, false),
            Field::new("figure", DataType::Utf8, true),
            Field::new("x", DataType::Int32, true),
            Field::new("y", DataType::Int32, true),
            Field::new("feature", DataType::Utf8, true),
        ],
        "decisions" => vec![
            id(),
            Field::new("index", DataType::UInt32, false),
            Field::new("action", DataType::UInt32, false),
            Field::new("player", DataType::UInt8, false),
            Field::new("legal", DataType::UInt32, false),
            Field::new("chosen", DataType::UInt32, true),
            Field::new("targets", list_of(DataType::Struct(target_fields())), false),
            Field::new("values", list_of(DataType::Float32), false),
            Field::new("outcome", DataType::Float32, false),
            Field::new("margin", DataType::Int32, false),
        ],
        "records" => vec![id(), Field::new("record", DataType::Utf8, false)],
        _ => return None,
    };
    Some(with_meta(table, fields))
}
