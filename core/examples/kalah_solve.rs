//! Development driver: `cargo run --release -p ply-core --example kalah_solve -- P S [ec] [K] [TTBITS] [ID]`.
use ply_core::games::kalah::{Kalah, KalahRules};
use ply_core::games::kalah_solver::*;
use std::time::Instant;

struct Ctl(Instant);
impl SolveControl for Ctl {
    fn progress(&mut self, p: &SolveProgress) {
        eprintln!(
            "  {:>6.1}s depth {:?} bounds {}..{} nodes {} hits {} fill {}",
            self.0.elapsed().as_secs_f64(),
            p.depth,
            p.lower,
            p.upper,
            p.nodes,
            p.table_hits,
            p.tt_fill_permille
        );
    }
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let p: u8 = a[1].parse().unwrap();
    let s: u8 = a[2].parse().unwrap();
    let ec = a.get(3).map(|x| x == "ec").unwrap_or(false);
    let k: u32 = a.get(4).map(|x| x.parse().unwrap()).unwrap_or(0);
    let bits: u32 = a.get(5).map(|x| x.parse().unwrap()).unwrap_or(22);
    let id: u32 = a.get(6).map(|x| x.parse().unwrap()).unwrap_or(0);
    let rules = KalahRules::new(p, s).unwrap().with_empty_capture(ec);
    let t0 = Instant::now();
    let len = table_len(p, k).unwrap();
    let values: Vec<std::sync::atomic::AtomicI8> = (0..len)
        .map(|_| std::sync::atomic::AtomicI8::new(0))
        .collect();
    let file = format!(
        "/tmp/plytables/kalah-{}pits-{}.tbl",
        p,
        if ec { "empty-capture" } else { "seed-rules" }
    );
    match std::fs::read(&file) {
        Ok(bytes) if bytes.len() >= len => {
            for (v, b) in values.iter().zip(bytes) {
                v.store(b as i8, std::sync::atomic::Ordering::Relaxed);
            }
        }
        _ => build_tables(p, ec, k, 0, &values, |_| {}).unwrap(),
    }
    let tdb = t0.elapsed().as_secs_f64();
    eprintln!("tables to {} seeds: {} entries in {:.2}s", k, len, tdb);
    let tables = EndgameTables::new(p, ec, k, &values).unwrap();
    let mut tt = vec![SolverEntry::EMPTY; 1 << bits];
    let mut solver = KalahSolver::new(rules, &mut tt, tables).unwrap();
    solver.set_config(SolverConfig {
        deepening_to: id,
        ..SolverConfig::default()
    });
    let t1 = Instant::now();
    let v = solver.solve(&Kalah::new(rules), &mut Ctl(t1)).unwrap();
    println!(
        "{} value {} search {:.2}s nodes {} tables {:.2}s",
        rules,
        v,
        t1.elapsed().as_secs_f64(),
        solver.nodes(),
        tdb
    );
}
