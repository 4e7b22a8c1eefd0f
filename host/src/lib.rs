//! ply host library.
