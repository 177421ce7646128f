//! Criterion benchmarks for Alembic live in `benches/`.
