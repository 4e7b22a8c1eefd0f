//! Tic-tac-toe, every test of its rules in one place: move lists and positions as
//! snapshots, text round-trips and capacity; property tests against a slow legality
//! check; OpenSpiel's positions.

mod differential;
mod properties;
mod rules;
