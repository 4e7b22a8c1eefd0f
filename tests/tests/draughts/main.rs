//! English draughts and the Calgary variant, every test of their rules in one place:
//! the rules and both notations, perft against the published counts, the move-list
//! snapshots, property tests against a slow rule checker, OpenSpiel's positions, and
//! the search family on draughts.

mod db_index;
mod db_solver;
mod differential;
mod engine;
mod perft;
mod properties;
mod rules;
mod snapshots;
