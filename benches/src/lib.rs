//! Shared helpers for the Alembic benchmarks (the benchmarks themselves are in `benches/`).
