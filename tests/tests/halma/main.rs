//! Halma, every test of its rules in one place: move-list snapshots, the generator
//! against a plain path search, rule options, perft from the start positions, and
//! property tests on both boards under every rule option.

mod perft;
mod properties;
mod rules;
