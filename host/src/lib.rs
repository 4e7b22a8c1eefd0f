//! ply host library.

pub mod parallel;
