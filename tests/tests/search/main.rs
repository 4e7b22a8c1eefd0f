//! Search agreement in one place: every algorithm of the core (minimax, alpha-beta,
//! the engine, the solver) and every parallel strategy of the host returns plain
//! alpha-beta's value, for the root player, at odd and even depths, on every game and
//! evaluation; extra turns; the engine's hard time limit.

mod agreement;
mod extra_turns;
mod parallel;
mod probes;
mod pruning;
mod time_budget;
