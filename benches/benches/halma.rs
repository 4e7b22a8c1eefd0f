//! Halma benchmarks.
//!
//! * `halma_board/perft3_16x16/*`: the same generic move generator over the
//!   hand-written four-word board (`Bits256`) and over `bitvec::BitArray<[u64; 4]>`
//!   with bitvec's own operators and shifts — the measurement behind the choice of
//!   board (docs/performance.md, section Halma).
//! * `halma/perft4_8x8`, `halma/perft3_16x16`: move generation speed.
//! * `halma/middle_depth3/*`: the benchmark of the Haskell Halma report
//!   (docs/references.md) — the recorded 8×8 middle-game position
//!   (`benches/data/halma8_middle.txt`) searched to depth 3 by plain minimax and by
//!   alpha-beta under the report's Manhattan evaluation.

use std::ops::{BitAnd, BitOr, BitXor, Not};

use bitvec::prelude::*;
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use ply_core::bitboard::{Bitboard, Bits256, SquareBoard};
use ply_core::games::halma::eval::Manhattan;
use ply_core::games::halma::{Halma, Halma16Moves, HalmaBoard, HalmaRules};
use ply_core::games::{Halma16, Halma8};
use ply_core::perft::perft;
use ply_core::search::{alphabeta, minimax};
use ply_core::Game;

/// A 16×16 board on `bitvec`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Bv(BitArray<[u64; 4], Lsb0>);

impl BitAnd for Bv {
    type Output = Self;
    #[inline]
    fn bitand(self, o: Self) -> Self {
        Bv(self.0 & o.0.as_bitslice())
    }
}
impl BitOr for Bv {
    type Output = Self;
    #[inline]
    fn bitor(self, o: Self) -> Self {
        Bv(self.0 | o.0.as_bitslice())
    }
}
impl BitXor for Bv {
    type Output = Self;
    #[inline]
    fn bitxor(self, o: Self) -> Self {
        Bv(self.0 ^ o.0.as_bitslice())
    }
}
impl Not for Bv {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        Bv(!self.0)
    }
}

impl Bitboard for Bv {
    const EMPTY: Self = Bv(BitArray::ZERO);
    #[inline]
    fn square(sq: usize) -> Self {
        let mut b = BitArray::ZERO;
        b.set(sq, true);
        Bv(b)
    }
    #[inline]
    fn is_empty(self) -> bool {
        self.0.not_any()
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.count_ones() as u32
    }
    #[inline]
    fn lowest(self) -> Option<usize> {
        self.0.first_one()
    }
    #[inline]
    fn shl(mut self, k: u32) -> Self {
        self.0.shift_end(k as usize);
        self
    }
    #[inline]
    fn shr(mut self, k: u32) -> Self {
        self.0.shift_start(k as usize);
        self
    }
}

impl SquareBoard for Bv {
    const SIDE: usize = 16;
    const NOT_FIRST_COL: Self = Bv(BitArray {
        _ord: std::marker::PhantomData,
        data: [!0x0001_0001_0001_0001; 4],
    });
    const NOT_LAST_COL: Self = Bv(BitArray {
        _ord: std::marker::PhantomData,
        data: [!0x8000_8000_8000_8000; 4],
    });
}

/// The 16×16 game of [`Bits256`], on this board.
impl HalmaBoard for Bv {
    const PIECES: usize = Bits256::PIECES;
    const SIZE_NAME: &'static str = Bits256::SIZE_NAME;
    type Moves = Halma16Moves;
    fn in_first_camp(r: usize, c: usize) -> bool {
        Bits256::in_first_camp(r, c)
    }
    fn camps() -> [Self; 2] {
        Bits256::camps().map(|c| Bv(BitArray::new(c.0)))
    }
    // The parity classes go through Bits256: the same words, one bit a square.
    fn parity_classes(self) -> [u64; 4] {
        Bits256(self.0.data).parity_classes()
    }
    fn from_parity_class(class: usize, cells: u64) -> Self {
        Bv(BitArray::new(Bits256::from_parity_class(class, cells).0))
    }
}

const MIDDLE: &str = include_str!("../data/halma8_middle.txt");

fn bench(c: &mut Criterion) {
    let fast = Halma16::default();
    let slow = Halma::<Bv>::new(HalmaRules::default());
    // Both boards generate the same tree.
    assert_eq!(perft(&fast, 3), 85_440);
    assert_eq!(perft(&slow, 3), 85_440);
    let mut g = c.benchmark_group("halma_board");
    g.sample_size(10);
    g.bench_function("perft3_16x16/bits256", |b| {
        b.iter(|| perft(black_box(&fast), 3))
    });
    g.bench_function("perft3_16x16/bitvec", |b| {
        b.iter(|| perft(black_box(&slow), 3))
    });
    g.finish();

    let mut g = c.benchmark_group("halma");
    g.sample_size(10);
    let start8 = Halma8::default();
    g.bench_function("perft4_8x8", |b| b.iter(|| perft(black_box(&start8), 4)));
    g.bench_function("perft3_16x16", |b| b.iter(|| perft(black_box(&fast), 3)));
    let middle = Halma8::parse_position(HalmaRules::default(), MIDDLE.trim()).unwrap();
    let mm = minimax(&middle, 3, &Manhattan);
    let ab = alphabeta(&middle, 3, &Manhattan);
    assert_eq!(mm.best_move, ab.best_move);
    eprintln!(
        "middle game ({} moves), depth 3: minimax {} nodes, alpha-beta {} nodes, both choose {}",
        middle.legal_moves().len(),
        mm.nodes,
        ab.nodes,
        middle.display_move(mm.best_move.unwrap())
    );
    g.bench_function("middle_depth3/minimax", |b| {
        b.iter(|| minimax(black_box(&middle), 3, &Manhattan))
    });
    g.bench_function("middle_depth3/alphabeta", |b| {
        b.iter(|| alphabeta(black_box(&middle), 3, &Manhattan))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
