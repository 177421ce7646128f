//! Games built on the `alembic` engine's public API.
