// Code written against 0.1 named the generator at the crate root.
#![deny(deprecated)]

fn main() {
    let mut rng = alembic::GameRng::seed_from(7);
    let _ = rng.next_u32();
    let _ = alembic::SPEED;
}
