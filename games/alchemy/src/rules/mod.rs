//! The rules of Alchemy: world queries, combat, effects, time, monster behaviour, doors,
//! items and the hero's map memory.

pub mod ai;
pub mod combat;
pub mod doors;
pub mod effects;
pub mod items;
pub mod memory;
pub mod progress;
pub mod stack;
pub mod time;
pub mod world;
