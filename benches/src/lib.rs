//! Benchmarks of ply live in `benches/`.
