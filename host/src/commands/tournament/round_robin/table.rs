//! The round robin's table as the C++ Halma README scores it (pairs won, drawn and lost,
//! nodes, the "advantage") and its CSV results.

use ply_core::{Outcome, Player};

use super::{GameRecord, RoundRobinResult};

/// One line of the README's table.
#[derive(Clone, Debug, PartialEq)]
pub struct TableRow {
    /// The strategy's name.
    pub name: String,
    /// Pairs won (both games won, when two games are played per pair).
    pub wins: u32,
    /// Pairs drawn.
    pub draws: u32,
    /// Pairs lost.
    pub losses: u32,
    /// Games won, drawn, lost.
    pub games: [u32; 3],
    /// Nodes visited per game, averaged over its games.
    pub avg_nodes: f64,
    /// Average advantage in the games it won (`None`: no game won).
    pub avg_advantage_won: Option<f64>,
    /// Average advantage of the opponent in the games it lost.
    pub avg_advantage_lost: Option<f64>,
}

/// The README's table from the games: a strategy wins a pair when it wins more than
/// half of the pair's games, loses it when the opponent does, and draws it
/// otherwise (with two games: wins both, loses both, or anything else).
pub fn tabulate(names: &[String], games: &[GameRecord], per_pair: u32) -> Vec<TableRow> {
    let k = names.len();
    let mut rows: Vec<TableRow> = names
        .iter()
        .map(|n| TableRow {
            name: n.clone(),
            wins: 0,
            draws: 0,
            losses: 0,
            games: [0; 3],
            avg_nodes: 0.0,
            avg_advantage_won: None,
            avg_advantage_lost: None,
        })
        .collect();
    let mut pair_wins = vec![vec![0u32; k]; k];
    let mut nodes = vec![(0u64, 0u64); k];
    let mut adv_won = vec![(0i64, 0u32); k];
    let mut adv_lost = vec![(0i64, 0u32); k];
    for g in games {
        let players = [g.first, g.second];
        for (side, &s) in players.iter().enumerate() {
            nodes[s].0 += g.nodes[side];
            nodes[s].1 += 1;
        }
        match g.outcome {
            Outcome::Win(w) => {
                let (winner, loser) = (players[w.index()], players[w.opponent().index()]);
                pair_wins[winner][loser] += 1;
                rows[winner].games[0] += 1;
                rows[loser].games[2] += 1;
                adv_won[winner].0 += g.advantage;
                adv_won[winner].1 += 1;
                adv_lost[loser].0 += g.advantage;
                adv_lost[loser].1 += 1;
            }
            _ => {
                rows[g.first].games[1] += 1;
                rows[g.second].games[1] += 1;
            }
        }
    }
    for i in 0..k {
        for (j, won_by_j) in pair_wins.iter().enumerate() {
            if i == j {
                continue;
            }
            if 2 * pair_wins[i][j] > per_pair {
                rows[i].wins += 1;
            } else if 2 * won_by_j[i] > per_pair {
                rows[i].losses += 1;
            } else {
                rows[i].draws += 1;
            }
        }
        rows[i].avg_nodes = if nodes[i].1 > 0 {
            nodes[i].0 as f64 / nodes[i].1 as f64
        } else {
            0.0
        };
        let avg = |(s, n): (i64, u32)| (n > 0).then(|| s as f64 / f64::from(n));
        rows[i].avg_advantage_won = avg(adv_won[i]);
        rows[i].avg_advantage_lost = avg(adv_lost[i]);
    }
    rows
}

/// The README's table as Markdown, plus game totals.
pub fn format_table(res: &RoundRobinResult) -> String {
    let opt = |v: Option<f64>| v.map_or("-".to_string(), |x| format!("{:.2}", x));
    let mut s = String::from(
        "| strategy | wins | draws | losses | avg. number of visited nodes | avg. advantage if won | avg. advantage of opponent if lost | games won-drawn-lost |\n\
         | -------- | ---: | ----: | -----: | ---------------------------: | --------------------: | ---------------------------------: | :------------------: |\n",
    );
    for r in &res.table {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {:.2} | {} | {} | {}-{}-{} |\n",
            r.name,
            r.wins,
            r.draws,
            r.losses,
            r.avg_nodes,
            opt(r.avg_advantage_won),
            opt(r.avg_advantage_lost),
            r.games[0],
            r.games[1],
            r.games[2]
        ));
    }
    let n = res.games.len();
    let draws = res
        .games
        .iter()
        .filter(|g| g.outcome == Outcome::Draw)
        .count();
    let plies: u64 = res.games.iter().map(|g| u64::from(g.plies)).sum();
    s.push_str(&format!(
        "\n{} games, {} drawn, {:.1} plies per game on average\n",
        n,
        draws,
        plies as f64 / n.max(1) as f64
    ));
    s
}

/// The games as CSV, one line each after a header.
pub fn format_csv(names: &[String], res: &RoundRobinResult) -> String {
    let mut s =
        String::from("first,second,result,plies,nodes_first,nodes_second,advantage,start\n");
    for g in &res.games {
        let result = match g.outcome {
            Outcome::Win(Player::First) => "first",
            Outcome::Win(Player::Second) => "second",
            _ => "draw",
        };
        s.push_str(&format!(
            "{},{},{},{},{},{},{},{}\n",
            names[g.first].replace(',', " "),
            names[g.second].replace(',', " "),
            result,
            g.plies,
            g.nodes[0],
            g.nodes[1],
            g.advantage,
            g.start
        ));
    }
    s
}
