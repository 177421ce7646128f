//! The world is a value: changing it gives a new game and leaves the old one as it was.
//! Run it with `cargo run -p alembic-rl --example persistence`.

use alembic::{Game, Library, Loc, Prop, Props};

const HP: Prop<i32> = Prop::new("hp");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let lib = Library::new().proclaim("goblin", None, Props::new().with(&HP, 7))?;
    let before = Game::new(1).with_library(lib);
    let (before, goblin) =
        before.add_thing(Loc::new(2, 2, 0), before.library().create("goblin")?)?;

    // Persistent calls return a new game; `before` is untouched (and cloning was Θ(1)).
    let after = before
        .move_thing(goblin, Loc::new(3, 2, 0))?
        .set(goblin, &HP, 5)?;

    println!(
        "before: goblin at {} with {} hp",
        before.things().location(goblin)?,
        before.query(goblin, &HP)?
    );
    println!(
        "after:  goblin at {} with {} hp",
        after.things().location(goblin)?,
        after.query(goblin, &HP)?
    );
    assert_eq!(before.things().location(goblin)?, Loc::new(2, 2, 0));
    assert_eq!(before.things().at(Loc::new(3, 2, 0)), &[]);
    assert_ne!(before.state_hash(), after.state_hash());

    // Undo is just keeping the old value; the in-place `_mut` twins change one value only.
    let mut scratch = after.clone();
    scratch.remove_thing_mut(goblin)?;
    println!(
        "scratch has {} things, after still has {}",
        scratch.things().count(),
        after.things().count()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs() {
        super::main().unwrap();
    }
}
