//! Dev: match parameterised evaluations against the store difference.
use ply_core::games::kalah::{non_empty, pit, row_sum, Kalah, StoreDifference};
use ply_core::search::{Engine, EngineConfig, Evaluator, Limits, NoClock, Score, TtEntry};
use ply_core::{Game, Outcome, Player};

#[derive(Clone, Copy)]
struct P {
    rows: i32,
    extra: i32,
    cap: i32,
    decided: bool,
    left: i32,
}
impl Evaluator<Kalah> for P {
    fn evaluate(&self, g: &Kalah) -> Score {
        let me = g.side_to_move();
        let total = g.rules().total_seeds() as i32;
        let (mine, theirs) = (g.store(me) as i32, g.store(me.opponent()) as i32);
        if self.decided {
            if 2 * mine > total {
                return 4096 + 4 * (mine - theirs);
            }
            if 2 * theirs > total {
                return -4096 + 4 * (mine - theirs);
            }
        }
        let (own, opp) = g.rows_for_mover();
        let mut score =
            4 * (mine - theirs) + self.rows * (row_sum(own) as i32 - row_sum(opp) as i32);
        score += self.left * (pit(own, 0) as i32 - pit(opp, 0) as i32);
        let pits = u32::from(g.rules().pits);
        let mut best = 0;
        let mut bits = non_empty(own);
        while bits != 0 {
            let i = bits.trailing_zeros() / 8;
            bits &= bits - 1;
            let c = pit(own, i);
            if i + c == pits {
                score += self.extra;
            } else if i + c < pits {
                let last = i + c;
                let across = pit(opp, pits - 1 - last);
                if pit(own, last) == 0 && across > 0 {
                    best = best.max(across + 1);
                }
            }
        }
        score + self.cap * best as i32
    }
    fn terminal(&self, g: &Kalah, _o: Outcome, _p: u32) -> Score {
        let m = g.store_difference();
        4 * m + if self.decided { 4096 * m.signum() } else { 0 }
    }
}
#[derive(Clone, Copy)]
struct S4;
impl Evaluator<Kalah> for S4 {
    fn evaluate(&self, g: &Kalah) -> Score {
        StoreDifference.evaluate(g)
    }
    fn terminal(&self, g: &Kalah, o: Outcome, p: u32) -> Score {
        StoreDifference.terminal(g, o, p)
    }
}

fn game<A: Evaluator<Kalah> + Copy, B: Evaluator<Kalah> + Copy>(
    start: Kalah,
    a: A,
    b: B,
    d: u32,
) -> i32 {
    let mut sa = vec![TtEntry::EMPTY; 1 << 16];
    let mut sb = vec![TtEntry::EMPTY; 1 << 16];
    let mut ea = Engine::new(&mut sa, a, NoClock, EngineConfig::default());
    let mut eb = Engine::new(&mut sb, b, NoClock, EngineConfig::default());
    let mut g = start;
    while !g.outcome().is_over() {
        let r = match g.side_to_move() {
            Player::First => ea.search(&g, Limits::depth(d)),
            Player::Second => eb.search(&g, Limits::depth(d)),
        };
        g = g.play(r.best_move.unwrap()).unwrap();
    }
    g.store(Player::First) as i32 - g.store(Player::Second) as i32
}

fn main() {
    let a: Vec<i32> = std::env::args()
        .skip(1)
        .map(|x| x.parse().unwrap())
        .collect();
    let p = P {
        rows: a[0],
        extra: a[1],
        cap: a[2],
        decided: a[3] != 0,
        left: a[4],
    };
    let depth = a[5] as u32;
    let start = Kalah::default();
    let mut openings = Vec::new();
    for &x in start.legal_moves().iter() {
        let g = start.play_unchecked(x);
        for &y in g.legal_moves().iter() {
            openings.push(g.play_unchecked(y));
        }
    }
    let (mut w, mut l, mut d) = (0, 0, 0);
    for &o in &openings {
        for m in [game(o, p, S4, depth), -game(o, S4, p, depth)] {
            match m.signum() {
                1 => w += 1,
                -1 => l += 1,
                _ => d += 1,
            }
        }
    }
    println!("{:?} depth {}: +{} -{} ={}", a, depth, w, l, d);
}
