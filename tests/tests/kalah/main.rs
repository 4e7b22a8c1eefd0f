//! Kalah, every test of its rules and its solver in one place: move-list and position
//! snapshots, property tests against seed-by-seed sowing, OpenSpiel's positions, and
//! the published values the solver reproduces.

mod differential;
mod exact_play;
mod properties;
mod rules;
mod solver;
