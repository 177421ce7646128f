//! What the compiler tells a developer who uses the engine wrongly, checked word for word:
//! a 0.1 path names its 0.2 successor, and a turn's result cannot be dropped silently.
//! (`TRYBUILD=overwrite cargo test -p alembic-rl --test compile_fail` rewrites the `.stderr`
//! files after a deliberate change of wording.)

#[test]
fn misuse_is_reported_by_the_compiler() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/compile_fail/*.rs");
}
