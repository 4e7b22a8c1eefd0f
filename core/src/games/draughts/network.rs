//! A draughts evaluation by a small neural network, in integers and without
//! allocation: the same code runs on the host, in the browser and on a
//! microcontroller.
//!
//! # The network
//! * **Inputs**: the board from the side to move's view (Black's turned half a turn,
//!   square `s` ↔ `31 - s`, so the mover's men always move towards row 0), four
//!   planes of 32 squares: the mover's men, the mover's kings, the opponent's men,
//!   the opponent's kings ([`INPUTS`] = 128, each 0 or 1).
//! * **First layer**: [`HIDDEN`] sums of the inputs' `i16` weights and a bias, each
//!   clipped to `0..=ONE` ([`ONE`] stands for 1.0).
//! * **Second layer**: [`HIDDEN2`] sums of those times `i8` weights (scale
//!   [`W2_ONE`]) and an `i32` bias, divided by [`W2_ONE`] and clipped to `0..=ONE`.
//! * **Output**: one of [`BUCKETS`] linear outputs, chosen by the pieces on the board
//!   (1–6, 7–12, 13–18, 19–24; [`bucket`]), its `i16` weights at scale [`OUT_ONE`].
//!
//! The output `o` (the integer over `ONE × OUT_ONE`) is a logit: it predicts the
//! mover's score `1 / (1 + e^(-o))`. The evaluation is `o` × [`SCALE`], which puts a
//! man near 100 as the other draughts evaluations do (their values predict
//! `1 / (1 + e^(-v / 50))`).
//!
//! # The file
//! [`NETWORK_BYTES`] little-endian bytes: [`MAGIC`], then the first layer's weights
//! input by input ([`INPUTS`] × [`HIDDEN`] `i16`), its biases ([`HIDDEN`] `i16`), the
//! second layer's weights output by output ([`HIDDEN2`] × [`HIDDEN`] `i8`), its biases
//! ([`HIDDEN2`] `i32`), the output weights bucket by bucket ([`BUCKETS`] × [`HIDDEN2`]
//! `i16`) and biases ([`BUCKETS`] `i32`). [`Network::from_bytes`] and
//! [`Network::write_bytes`] are its one reader and writer; the training tools
//! (`tools/train/`, `ply-train fit-net`) write it. The network ply ships is
//! `network.bin` beside this file ([`Network::SHIPPED`]), read when ply is compiled.

use super::{Colour, Draughts};
use crate::game::Player;
use crate::search::{Evaluator, Score};

/// Input planes: the mover's men and kings, the opponent's men and kings.
pub const PLANES: usize = 4;
/// Inputs: [`PLANES`] × 32 squares.
pub const INPUTS: usize = PLANES * 32;
/// Units of the first layer.
pub const HIDDEN: usize = 128;
/// Units of the second layer.
pub const HIDDEN2: usize = 32;
/// Output buckets, by the pieces on the board.
pub const BUCKETS: usize = 4;
/// The integer that stands for an activation of 1.0 (and the first layer's weight
/// scale).
pub const ONE: i32 = 127;
/// The second layer's weight scale: a weight `w` is stored as `w × W2_ONE`.
pub const W2_ONE: i32 = 64;
/// The output weights' scale.
pub const OUT_ONE: i32 = 128;
/// Evaluation units a unit of the output logit.
pub const SCALE: i32 = 50;
/// The largest value the network gives, well inside the search's won and lost
/// scores.
pub const LIMIT: Score = 20_000;
// The x86 second layer reads the activations 16 bytes at a time and writes its sums
// 4 at a time.
const _: () = assert!(HIDDEN.is_multiple_of(16) && HIDDEN2.is_multiple_of(4));

/// The first bytes of a network file.
pub const MAGIC: &[u8; 8] = b"plynet1\n";
/// Bytes of a network file.
pub const NETWORK_BYTES: usize = MAGIC.len()
    + 2 * INPUTS * HIDDEN
    + 2 * HIDDEN
    + HIDDEN2 * HIDDEN
    + 4 * HIDDEN2
    + 2 * BUCKETS * HIDDEN2
    + 4 * BUCKETS;

/// The weights of a network, as integers (see the module documentation).
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// The first layer's weights, input by input.
    pub w1: [[i16; HIDDEN]; INPUTS],
    /// The first layer's biases.
    pub b1: [i16; HIDDEN],
    /// The second layer's weights, output by output.
    pub w2: [[i8; HIDDEN]; HIDDEN2],
    /// The second layer's biases.
    pub b2: [i32; HIDDEN2],
    /// The output weights, bucket by bucket.
    pub w3: [[i16; HIDDEN2]; BUCKETS],
    /// The output biases.
    pub b3: [i32; BUCKETS],
}

impl core::fmt::Debug for Network {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Network({INPUTS}-{HIDDEN}-{HIDDEN2}-{BUCKETS})")
    }
}

/// Why bytes are not a network file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The bytes are not [`NETWORK_BYTES`] long (their length).
    Length(usize),
    /// They do not start with [`MAGIC`].
    Magic,
}

impl core::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            NetworkError::Length(n) => write!(
                f,
                "a draughts network file has {NETWORK_BYTES} bytes, this one {n}"
            ),
            NetworkError::Magic => write!(f, "not a draughts network file (no plynet1 header)"),
        }
    }
}

/// Reads the little-endian numbers of a network file in order.
struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl Reader<'_> {
    const fn i16(&mut self) -> i16 {
        let v = i16::from_le_bytes([self.bytes[self.at], self.bytes[self.at + 1]]);
        self.at += 2;
        v
    }

    const fn i8(&mut self) -> i8 {
        let v = self.bytes[self.at] as i8;
        self.at += 1;
        v
    }

    const fn i32(&mut self) -> i32 {
        let b = self.bytes;
        let a = self.at;
        self.at += 4;
        i32::from_le_bytes([b[a], b[a + 1], b[a + 2], b[a + 3]])
    }
}

/// The network ply ships.
static SHIPPED: Network = match Network::from_bytes(include_bytes!("network.bin")) {
    Ok(n) => n,
    Err(_) => panic!("network.bin is not a draughts network file"),
};

impl Network {
    /// The network ply ships (`network.bin`).
    pub const SHIPPED: &'static Network = &SHIPPED;

    /// The network of zero weights and biases (its logit is 0 everywhere).
    pub const ZERO: Network = Network {
        w1: [[0; HIDDEN]; INPUTS],
        b1: [0; HIDDEN],
        w2: [[0; HIDDEN]; HIDDEN2],
        b2: [0; HIDDEN2],
        w3: [[0; HIDDEN2]; BUCKETS],
        b3: [0; BUCKETS],
    };

    /// The network of a network file (see the module documentation).
    pub const fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() != NETWORK_BYTES {
            return Err(NetworkError::Length(bytes.len()));
        }
        let mut i = 0;
        while i < MAGIC.len() {
            if bytes[i] != MAGIC[i] {
                return Err(NetworkError::Magic);
            }
            i += 1;
        }
        let mut r = Reader {
            bytes,
            at: MAGIC.len(),
        };
        let mut n = Network::ZERO;
        let mut i = 0;
        while i < INPUTS {
            let mut j = 0;
            while j < HIDDEN {
                n.w1[i][j] = r.i16();
                j += 1;
            }
            i += 1;
        }
        let mut j = 0;
        while j < HIDDEN {
            n.b1[j] = r.i16();
            j += 1;
        }
        let mut k = 0;
        while k < HIDDEN2 {
            let mut j = 0;
            while j < HIDDEN {
                n.w2[k][j] = r.i8();
                j += 1;
            }
            k += 1;
        }
        let mut k = 0;
        while k < HIDDEN2 {
            n.b2[k] = r.i32();
            k += 1;
        }
        let mut b = 0;
        while b < BUCKETS {
            let mut k = 0;
            while k < HIDDEN2 {
                n.w3[b][k] = r.i16();
                k += 1;
            }
            b += 1;
        }
        let mut b = 0;
        while b < BUCKETS {
            n.b3[b] = r.i32();
            b += 1;
        }
        Ok(n)
    }

    /// Writes the network file of `self` into `out`, which must be [`NETWORK_BYTES`]
    /// long; `Err` with its length otherwise.
    pub fn write_bytes(&self, out: &mut [u8]) -> Result<(), NetworkError> {
        if out.len() != NETWORK_BYTES {
            return Err(NetworkError::Length(out.len()));
        }
        let mut at = 0;
        let mut put = |b: &[u8]| {
            out[at..at + b.len()].copy_from_slice(b);
            at += b.len();
        };
        put(MAGIC);
        self.w1.iter().flatten().for_each(|w| put(&w.to_le_bytes()));
        self.b1.iter().for_each(|w| put(&w.to_le_bytes()));
        self.w2.iter().flatten().for_each(|w| put(&w.to_le_bytes()));
        self.b2.iter().for_each(|w| put(&w.to_le_bytes()));
        self.w3.iter().flatten().for_each(|w| put(&w.to_le_bytes()));
        self.b3.iter().for_each(|w| put(&w.to_le_bytes()));
        Ok(())
    }

    /// The output logit of the position `g` for the side to move, as an integer over
    /// `ONE × OUT_ONE` (see the module documentation).
    pub fn logit(&self, g: &Draughts) -> i32 {
        let mut acc = self.b1;
        for_each_input(g, |i| {
            let w = &self.w1[i];
            for (a, &w) in acc.iter_mut().zip(w.iter()) {
                *a = a.wrapping_add(w);
            }
        });
        let b = bucket(g);
        self.b3[b] + self.second_layer(&mut acc, b)
    }

    /// The second layer and the output of bucket `b` (without its bias), from the
    /// first layer's sums `acc`: by byte multiply-adds where the build has SSSE3.
    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    #[inline]
    fn second_layer(&self, acc: &mut [i16; HIDDEN], b: usize) -> i32 {
        let mut a1 = [0u8; HIDDEN];
        for (a, &s) in a1.iter_mut().zip(acc.iter()) {
            *a = s.clamp(0, ONE as i16) as u8;
        }
        let sums = layer2(&a1, &self.w2);
        let mut out = 0;
        for ((&s, &bias), &w) in sums.iter().zip(self.b2.iter()).zip(self.w3[b].iter()) {
            let a2 = ((s + bias) / W2_ONE).clamp(0, ONE);
            out += a2 * i32::from(w);
        }
        out
    }

    /// The second layer and the output in plain integers, the activations in place of
    /// the sums (no more stack than `acc`: the firmware's 16 KiB matter).
    #[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
    #[inline]
    fn second_layer(&self, acc: &mut [i16; HIDDEN], b: usize) -> i32 {
        self.second_layer_plain(acc, b)
    }

    /// [`Network::second_layer`] in plain integers (also compiled where it is not
    /// used, so that the tests compare it with the byte multiply-adds).
    #[cfg_attr(
        all(target_arch = "x86_64", target_feature = "ssse3", not(test)),
        allow(dead_code)
    )]
    fn second_layer_plain(&self, acc: &mut [i16; HIDDEN], b: usize) -> i32 {
        for a in acc.iter_mut() {
            *a = (*a).clamp(0, ONE as i16);
        }
        let mut out = 0;
        for k in 0..HIDDEN2 {
            let s: i32 = acc
                .iter()
                .zip(self.w2[k].iter())
                .map(|(&a, &w)| i32::from(a) * i32::from(w))
                .sum();
            let a2 = ((s + self.b2[k]) / W2_ONE).clamp(0, ONE);
            out += a2 * i32::from(self.w3[b][k]);
        }
        out
    }

    /// The value of `g` for the side to move, in evaluation units (a man near 100).
    pub fn mover_value(&self, g: &Draughts) -> Score {
        let v = i64::from(self.logit(g)) * i64::from(SCALE) / i64::from(ONE * OUT_ONE);
        v.clamp(-i64::from(LIMIT), i64::from(LIMIT)) as Score
    }
}

/// The second layer's sums before their biases: `a1 · w2[k]` for each output `k`.
/// Each product is at most 127 × 128 and a pair of them fits an `i16`, which is what
/// the x86 multiply-add of bytes (`pmaddubsw`, SSSE3) needs; elsewhere (the
/// firmware, the browser) the same sums in plain integers.
#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
#[inline]
fn layer2(a1: &[u8; HIDDEN], w2: &[[i8; HIDDEN]; HIDDEN2]) -> [i32; HIDDEN2] {
    use core::arch::x86_64::{
        __m128i, _mm_add_epi32, _mm_hadd_epi32, _mm_loadu_si128, _mm_madd_epi16, _mm_maddubs_epi16,
        _mm_set1_epi16, _mm_setzero_si128, _mm_storeu_si128,
    };
    let mut out = [0i32; HIDDEN2];
    #[allow(unsafe_code)]
    // SAFETY: SSSE3 is enabled for this build (the `cfg` above), so every
    // instruction used exists; each load reads 16 bytes at an offset a multiple of 16
    // inside an array of `HIDDEN` (a multiple of 16) bytes, and each store writes 4
    // `i32`s at an offset a multiple of 4 inside `out`, of `HIDDEN2` (a multiple of 4)
    // `i32`s; unaligned loads and stores (`loadu`, `storeu`) need no alignment.
    unsafe {
        let ones = _mm_set1_epi16(1);
        let mut a = [_mm_setzero_si128(); HIDDEN / 16];
        for (c, v) in a.iter_mut().enumerate() {
            *v = _mm_loadu_si128(a1.as_ptr().add(16 * c).cast::<__m128i>());
        }
        for k in (0..HIDDEN2).step_by(4) {
            let mut sums = [_mm_setzero_si128(); 4];
            for (q, sum) in sums.iter_mut().enumerate() {
                let row = w2[k + q].as_ptr();
                for (c, &av) in a.iter().enumerate() {
                    let w = _mm_loadu_si128(row.add(16 * c).cast::<__m128i>());
                    let pairs = _mm_maddubs_epi16(av, w);
                    *sum = _mm_add_epi32(*sum, _mm_madd_epi16(pairs, ones));
                }
            }
            let s = _mm_hadd_epi32(
                _mm_hadd_epi32(sums[0], sums[1]),
                _mm_hadd_epi32(sums[2], sums[3]),
            );
            _mm_storeu_si128(out.as_mut_ptr().add(k).cast::<__m128i>(), s);
        }
    }
    out
}

/// The output bucket of `g`: by the pieces on the board, 1–6 → 0, 7–12 → 1, 13–18 →
/// 2, 19–24 → 3.
#[inline]
pub fn bucket(g: &Draughts) -> usize {
    let pieces = (g.pieces(Colour::White) | g.pieces(Colour::Black)).count_ones() as usize;
    (pieces.saturating_sub(1) * BUCKETS / 24).min(BUCKETS - 1)
}

/// Calls `f(input)` for every input of `g` that is 1 (see the module
/// documentation); the evaluation and the training tools read positions through
/// this one function.
#[inline(always)]
pub fn for_each_input(g: &Draughts, mut f: impl FnMut(usize)) {
    let (w, b, k) = (g.pieces(Colour::White), g.pieces(Colour::Black), g.kings());
    let (own, opp, kings) = match g.colour_to_move() {
        Colour::White => (w, b, k),
        Colour::Black => (b.reverse_bits(), w.reverse_bits(), k.reverse_bits()),
    };
    for (plane, mut bits) in [
        (0, own & !kings),
        (1, own & kings),
        (2, opp & !kings),
        (3, opp & kings),
    ] {
        while bits != 0 {
            f(plane * 32 + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
}

/// The network evaluation over a network held elsewhere (the shipped one, or one read
/// from a file by the host).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetworkEval<'n> {
    net: &'n Network,
}

#[cfg(feature = "defmt")]
impl defmt::Format for NetworkEval<'_> {
    fn format(&self, f: defmt::Formatter) {
        defmt::write!(f, "NetworkEval")
    }
}

impl NetworkEval<'static> {
    /// The network ply ships.
    pub const SHIPPED: NetworkEval<'static> = NetworkEval {
        net: Network::SHIPPED,
    };
}

impl<'n> NetworkEval<'n> {
    /// The evaluation over `net`.
    pub const fn new(net: &'n Network) -> Self {
        NetworkEval { net }
    }

    /// The value for White minus the value for Black (the network is read from the
    /// mover's side; this turns it to White's).
    pub fn white_minus_black(&self, g: &Draughts) -> Score {
        let v = self.net.mover_value(g);
        match g.colour_to_move() {
            Colour::White => v,
            Colour::Black => -v,
        }
    }
}

impl Evaluator<Draughts> for NetworkEval<'_> {
    #[inline]
    fn evaluate(&self, g: &Draughts, me: Player) -> Score {
        super::eval::for_me(g, me, self.white_minus_black(g))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::draughts::english_position as pos;

    fn zero() -> Network {
        Network::ZERO
    }

    #[test]
    fn a_network_file_round_trips_and_bad_ones_are_named() {
        let mut n = zero();
        n.w1[3][7] = -300;
        n.b1[5] = 12;
        n.w2[31][127] = -128;
        n.b2[2] = 1 << 20;
        n.w3[3][31] = 999;
        n.b3[1] = -77;
        let mut bytes = [0u8; NETWORK_BYTES];
        n.write_bytes(&mut bytes).unwrap();
        assert_eq!(Network::from_bytes(&bytes).unwrap(), n);
        assert_eq!(
            Network::from_bytes(&bytes[1..]),
            Err(NetworkError::Length(NETWORK_BYTES - 1))
        );
        bytes[0] = b'x';
        assert_eq!(Network::from_bytes(&bytes), Err(NetworkError::Magic));
        assert!(n.write_bytes(&mut [0u8; 3]).is_err());
    }

    #[test]
    fn the_inputs_are_read_from_the_movers_side() {
        // The same position with the colours and the board turned: the same inputs.
        let a = pos("W:W21,K30:B5,K12");
        let b = pos("B:W28,K21:B12,K3");
        let mut ia = [false; INPUTS];
        let mut ib = [false; INPUTS];
        for_each_input(&a, |i| ia[i] = true);
        for_each_input(&b, |i| ib[i] = true);
        assert_eq!(ia.iter().filter(|&&x| x).count(), 4);
        assert_eq!(ia, ib);
    }

    #[test]
    fn one_weight_gives_its_value_through_the_layers() {
        // One path: a White man on square 21 (bit 20) to the mover's first unit,
        // through the second layer's first unit, to every bucket's output.
        let mut n = zero();
        n.w1[20][0] = ONE as i16; // activation 1.0
        n.w2[0][0] = W2_ONE as i8; // weight 1.0
        for b in 0..BUCKETS {
            n.w3[b][0] = 2 * OUT_ONE as i16; // weight 2.0
        }
        let g = pos("W:W21:B1");
        assert_eq!(bucket(&g), 0);
        assert_eq!(n.logit(&g), 2 * ONE * OUT_ONE);
        assert_eq!(n.mover_value(&g), 2 * SCALE);
        let e = NetworkEval::new(&n);
        assert_eq!(e.white_minus_black(&g), 2 * SCALE);
        // Black to move does not have that man on its side: nothing.
        let h = pos("B:W21:B1");
        assert_eq!(e.white_minus_black(&h), 0);
        // A negative first-layer sum is clipped to zero.
        n.w1[20][0] = -(ONE as i16);
        assert_eq!(n.logit(&g), 0);
    }

    #[test]
    fn the_plain_second_layer_gives_what_the_fast_one_gives() {
        // Over the positions of random games, with the shipped network.
        let n = Network::SHIPPED;
        let mut rng = crate::playout::SplitMix64::new(9);
        for _ in 0..20 {
            let mut g = Draughts::new(crate::games::draughts::Rules::english());
            while !crate::game::Game::outcome(&g).is_over() {
                let mut acc = n.b1;
                for_each_input(&g, |i| {
                    for (a, &w) in acc.iter_mut().zip(n.w1[i].iter()) {
                        *a = a.wrapping_add(w);
                    }
                });
                let b = bucket(&g);
                let plain = n.b3[b] + n.second_layer_plain(&mut acc.clone(), b);
                assert_eq!(n.logit(&g), plain, "{g}");
                let moves = crate::game::Game::legal_moves(&g);
                g = crate::game::Game::play_unchecked(&g, moves[rng.below(moves.len())]);
            }
        }
    }

    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    #[test]
    fn the_second_layer_sums_what_plain_integers_sum() {
        // Random activations and weights, and the extremes (127 × ±127 in every
        // place, the largest pairs the byte multiply-add must not saturate).
        let mut rng = crate::playout::SplitMix64::new(5);
        for round in 0..20 {
            let mut a1 = [0u8; HIDDEN];
            let mut w2 = [[0i8; HIDDEN]; HIDDEN2];
            for a in a1.iter_mut() {
                *a = if round == 0 {
                    127
                } else {
                    rng.below(128) as u8
                };
            }
            for (k, row) in w2.iter_mut().enumerate() {
                for w in row.iter_mut() {
                    *w = match round {
                        0 if k % 2 == 0 => 127,
                        0 => -127,
                        _ => (rng.below(255) as i32 - 127) as i8,
                    };
                }
            }
            let sums = layer2(&a1, &w2);
            for k in 0..HIDDEN2 {
                let plain: i32 = (0..HIDDEN)
                    .map(|j| i32::from(a1[j]) * i32::from(w2[k][j]))
                    .sum();
                assert_eq!(sums[k], plain, "round {round}, output {k}");
            }
        }
    }

    #[test]
    fn the_buckets_follow_the_pieces() {
        assert_eq!(bucket(&pos("W:W21:B1")), 0);
        assert_eq!(bucket(&pos("W:W21-25:B1")), 0);
        assert_eq!(bucket(&pos("W:W21-26:B1")), 1);
        assert_eq!(bucket(&pos("W:W21-32:B1-12")), 3);
    }

    #[test]
    fn the_shipped_network_is_reasonable() {
        let e = NetworkEval::SHIPPED;
        let start = pos("B:W21-32:B1-12");
        assert!(e.white_minus_black(&start).abs() < 60);
        // White a man up does better for White than level.
        let up = pos("B:W21-32:B1-11");
        assert!(e.white_minus_black(&up) > e.white_minus_black(&start) + 40);
    }
}
