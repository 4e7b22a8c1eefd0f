//! Cross-crate and snapshot tests of ply live in `tests/`; this library holds what
//! several of them share.
#![warn(missing_docs)]

pub mod differential;
