//! Cross-crate and snapshot tests of ply live in `tests/`.
