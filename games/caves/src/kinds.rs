//! The enums the Caves' data is read as.

use alembic::{props::PropType, props::Value, props::ValueKind};
use serde::{Deserialize, Serialize};

/// How the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// Still underground and alive.
    Playing,
    /// Reached the way out.
    Won,
    /// Died.
    Dead,
}

/// Stored as a number; any other number reads as an error, never as a default.
impl PropType for Outcome {
    const KIND: ValueKind = ValueKind::Int;
    fn into_value(self) -> Value {
        Value::Int(match self {
            Outcome::Playing => 0,
            Outcome::Won => 1,
            Outcome::Dead => 2,
        })
    }
    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Int(0) => Some(Outcome::Playing),
            Value::Int(1) => Some(Outcome::Won),
            Value::Int(2) => Some(Outcome::Dead),
            _ => None,
        }
    }
}
