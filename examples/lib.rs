//! ply's examples live beside this file, one program each (`cargo run --example
//! NAME`): `connect_four` (a new game in one file), `embed` (the core with no
//! allocator), `custom_eval` (an evaluation of one's own). This library is empty: a
//! package needs one target of its own for cargo to hold the examples.
