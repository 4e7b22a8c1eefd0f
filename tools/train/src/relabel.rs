//! Game results corrected by the draughts endgame databases
//! (`ply_core::games::draughts::db`): a self-play game between shallow searches
//! often throws away a won ending or saves a lost one, so its recorded result says
//! more about the players than about the positions before. Once a game reaches a
//! position the databases hold, its value under perfect play is known: every
//! earlier position of the game takes that value as its result, and every later one
//! its own exact value (and, in a labelled file, that value as its search value too).

use ply_core::games::draughts::db::{Database, Value};

use crate::data::Record;
use crate::label::DECIDED;

/// What [`relabel`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Games in the records.
    pub games: u64,
    /// Games that reached a position of the databases.
    pub adjudicated: u64,
    /// Records whose result changed.
    pub changed: u64,
    /// Records labelled by their own exact value.
    pub exact: u64,
}

/// White's result (0 loss, 1 draw, 2 win) of `value`, the value for the side to
/// move of a position with `white_to_move`.
fn white_result(value: Value, white_to_move: bool) -> u8 {
    let mover = match value {
        Value::Win(_) => 2,
        Value::Draw => 1,
        Value::Loss(_) => 0,
    };
    if white_to_move {
        mover
    } else {
        2 - mover
    }
}

/// Replaces each game's result by the databases' value of its first position they
/// hold, and each such position's (and every later one's) by its own value. Games
/// are told apart by [`Record::game`] (one record file's numbering), in the order of
/// [`Record::ply`]; a game that never reaches the databases keeps its result.
pub fn relabel(records: &mut [Record], db: &Database) -> Result<Report, String> {
    let mut order: Vec<usize> = (0..records.len()).collect();
    order.sort_by_key(|&i| (records[i].game, records[i].ply));
    let mut report = Report::default();
    let mut at = 0;
    while at < order.len() {
        let game = records[order[at]].game;
        let end = at + order[at..].partition_point(|&i| records[i].game == game);
        report.games += 1;
        let mut reached: Option<u8> = None;
        for &i in &order[at..end] {
            let r = records[i];
            let exact = db.probe(&r.position()?);
            let result = match (exact, reached) {
                (Some(v), _) => {
                    let w = white_result(v, r.white_to_move);
                    if reached.is_none() {
                        report.adjudicated += 1;
                        reached = Some(w);
                        for &j in &order[at..end] {
                            if records[j].ply >= r.ply {
                                break;
                            }
                            if records[j].result != w {
                                report.changed += 1;
                                records[j].result = w;
                            }
                        }
                    }
                    report.exact += 1;
                    w
                }
                (None, Some(w)) => w,
                (None, None) => continue,
            };
            if records[i].result != result {
                report.changed += 1;
                records[i].result = result;
            }
            if exact.is_some() && records[i].search.is_some() {
                // A search value beside an exact one says less: the label is the
                // exact value, as certain as a proved search value.
                records[i].search = Some(match result {
                    2 => DECIDED,
                    0 => -DECIDED,
                    _ => 0,
                });
            }
        }
        at = end;
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::games::draughts::{Draughts, Rules};
    use ply_core::Game;

    fn record(text: &str, game: u32, ply: u16, result: u8) -> Record {
        let g = Draughts::parse_position(Rules::english(), text).unwrap();
        let mut r = Record::of(&g, game, ply);
        r.result = result;
        r
    }

    #[test]
    fn a_game_takes_the_value_of_its_first_position_in_the_databases() {
        let (db, _) = ply_host::draughts_db::build_in_memory(3, 1).unwrap();
        // Two White kings against a Black man, White to move: White wins.
        let won = record("W:WK10,K14:B1", 7, 3, 1);
        assert!(matches!(
            db.probe(&won.position().unwrap()),
            Some(Value::Win(_))
        ));
        // The same men, Black to move: a loss for Black, so a win for White too.
        let later = record("B:WK10,K15:B1", 7, 4, 1);
        let lone = record("B:WK10:BK1", 7, 5, 0);
        let records = [
            later,
            record("W:WK10,K14,K20:B1", 7, 1, 0),
            won,
            lone,
            record("W:WK10,K14,K20:B1", 8, 1, 0),
            record("B:WK10,K14:B1,5", 8, 2, 0),
        ];
        let mut out = records;
        let report = relabel(&mut out, db).unwrap();
        assert_eq!(report.games, 2);
        assert_eq!(report.adjudicated, 1);
        assert_eq!(report.exact, 3);
        // Game 7: the four-piece position before takes the first exact value (a
        // White win); the exact ones their own: king against king is a draw.
        assert_eq!(
            [out[0].result, out[1].result, out[2].result, out[3].result],
            [2, 2, 2, 1]
        );
        assert_eq!(report.changed, 4);
        // Game 8 never reaches three pieces: its result stays.
        assert_eq!([out[4].result, out[5].result], [0, 0]);
        // Nothing but the results changed.
        for (a, b) in records.iter().zip(&out) {
            assert_eq!(
                (a.black, a.white, a.kings, a.game, a.ply),
                (b.black, b.white, b.kings, b.game, b.ply)
            );
        }
        // In a labelled file the exact positions' search values become exact too,
        // the others keep theirs.
        let mut labelled = records.map(|r| Record {
            search: Some(-7),
            ..r
        });
        relabel(&mut labelled, db).unwrap();
        let search: Vec<i32> = labelled.iter().map(|r| r.search.unwrap()).collect();
        assert_eq!(search, [DECIDED, -7, DECIDED, 0, -7, -7]);
    }

    #[test]
    fn white_results_follow_the_side_to_move() {
        assert_eq!(white_result(Value::Win(3), true), 2);
        assert_eq!(white_result(Value::Win(3), false), 0);
        assert_eq!(white_result(Value::Loss(0), false), 2);
        assert_eq!(white_result(Value::Draw, false), 1);
    }
}
