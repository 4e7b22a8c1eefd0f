//! English draughts (`checkers`, `checkers:english`, `checkers:calgary`) in the `ply`
//! tools: the stage-aware evaluation, player names by variant (Black and White, or
//! Red and Black), a board diagram with PDN square numbers and the Calgary
//! coordinates, `--unique` perft and the Calgary move notation.

use ply_core::games::draughts::{square_at, Colour, Draughts, DraughtsEvaluation, Move, Variant};
use ply_core::search::Recommended;
use ply_core::{Game, Outcome, Player};

use crate::games::HostGame;

impl HostGame for Draughts {
    const NAME: &'static str = "checkers";
    type Eval = DraughtsEvaluation;

    fn evaluator(name: Option<&str>) -> Result<DraughtsEvaluation, String> {
        match name {
            // The core's default (`Recommended`): the learned evaluation.
            None => Ok(Draughts::evaluation()),
            Some("learned") => Ok(DraughtsEvaluation::LEARNED),
            Some("standard") => Ok(DraughtsEvaluation::STANDARD),
            Some("material") => Ok(DraughtsEvaluation::MATERIAL),
            Some(other) => Err(format!(
                "unknown evaluation {} for checkers: expected learned, standard or material",
                crate::quote::quote(other)
            )),
        }
    }

    fn evaluator_names() -> &'static [&'static str] {
        &["learned", "standard", "material"]
    }

    fn player_name(&self, player: Player) -> &'static str {
        colour_name(self, self.rules().colour_of(player))
    }

    fn diagram(&self) -> String {
        let calgary = self.rules().variant() == Variant::Calgary;
        let white = if calgary { ['r', 'R'] } else { ['w', 'W'] };
        let mut out = String::from("    0  1  2  3  4  5  6  7   (x; squares 1-32 on the right)\n");
        for y in 0..8 {
            out.push_str(&format!(" {} ", y));
            let mut numbers = Vec::new();
            for x in 0..8 {
                let cell = match square_at(x, y) {
                    None => "   ".to_string(),
                    Some(sq) => {
                        numbers.push(format!("{:>2}", sq + 1));
                        let b = 1u32 << sq;
                        let king = self.kings() & b != 0;
                        let c = if self.pieces(Colour::Black) & b != 0 {
                            ['b', 'B'][king as usize]
                        } else if self.pieces(Colour::White) & b != 0 {
                            white[king as usize]
                        } else {
                            '.'
                        };
                        format!(" {} ", c)
                    }
                };
                out.push_str(&cell);
            }
            out.push_str("   ");
            out.push_str(&numbers.join(" "));
            out.push('\n');
        }
        out.push_str(&format!(
            "{} to move; men {}, kings {}",
            colour_name(self, self.colour_to_move()),
            if calgary { "b r" } else { "b w" },
            if calgary { "B R" } else { "B W" },
        ));
        if calgary {
            // The position text (PDN FEN) has only the letters B and W.
            out.push_str("\nin the position line, W is Red and B is Black");
        }
        out
    }

    fn end_reason(&self) -> String {
        match self.outcome() {
            Outcome::Win(p) => format!("{} has no legal move", self.player_name(p.opponent())),
            Outcome::Draw
                if self.reversible_plies() >= 2 * u32::from(self.rules().move_limit()) =>
            {
                format!(
                    "drawn: {} moves by each side without a man move or a capture",
                    self.rules().move_limit()
                )
            }
            Outcome::Draw => format!(
                "drawn: the same position for the {} time",
                match self.rules().repetition() {
                    2 => "second".to_string(),
                    3 => "third".to_string(),
                    n => format!("{}th", n),
                }
            ),
            Outcome::Ongoing => "the game goes on".into(),
        }
    }

    fn describe_move(&self, mv: Move) -> String {
        if self.rules().variant() == Variant::Calgary {
            format!(
                "plays {} {}",
                self.display_move(mv),
                self.display_calgary(mv)
            )
        } else {
            format!("plays {}", self.display_move(mv))
        }
    }

    fn unique_captures(rules: Self::Rules) -> Result<Self::Rules, String> {
        Ok(rules.with_unique_captures(true))
    }

    fn notations() -> &'static [&'static str] {
        &["pdn", "calgary"]
    }

    fn move_in_notation(&self, mv: Move, notation: Option<&str>) -> Result<String, String> {
        match notation {
            None | Some("pdn") => Ok(self.display_move(mv).to_string()),
            Some("calgary") => Ok(self.display_calgary(mv).to_string()),
            Some(other) => Err(format!(
                "unknown notation {} for checkers: expected pdn or calgary",
                crate::quote::quote(other)
            )),
        }
    }
}

fn colour_name(g: &Draughts, c: Colour) -> &'static str {
    match (g.rules().variant(), c) {
        (_, Colour::Black) => "Black",
        (Variant::English, Colour::White) => "White",
        (Variant::Calgary, Colour::White) => "Red",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::games::draughts::Rules;

    #[test]
    fn names_follow_the_variant() {
        let e = Draughts::start(Rules::english());
        assert_eq!(e.player_name(Player::First), "Black");
        assert_eq!(e.player_name(Player::Second), "White");
        let c = Draughts::start(Rules::calgary());
        assert_eq!(c.player_name(Player::First), "Red");
        assert_eq!(c.player_name(Player::Second), "Black");
    }

    #[test]
    fn end_reasons_name_the_rule() {
        let blocked = Draughts::parse_position(Rules::english(), "W:W29:B25,22").unwrap();
        assert!(blocked.outcome().is_over());
        assert_eq!(blocked.end_reason(), "White has no legal move");
        // Kings stepping back and forth: the start position a third time.
        let mut g = Draughts::parse_position(Rules::english(), "B:WK29:BK4").unwrap();
        for m in [
            "4-8", "29-25", "8-4", "25-29", "4-8", "29-25", "8-4", "25-29",
        ] {
            g = crate::position::play_text(&g, m).unwrap();
        }
        assert_eq!(g.outcome(), Outcome::Draw);
        assert_eq!(
            g.end_reason(),
            "drawn: the same position for the third time"
        );
        // A move limit of one move a side: two king steps.
        let rules = Rules::english().with_move_limit(1).unwrap();
        let mut g = Draughts::parse_position(rules, "B:WK29:BK4").unwrap();
        for m in ["4-8", "29-25"] {
            g = crate::position::play_text(&g, m).unwrap();
        }
        assert_eq!(
            g.end_reason(),
            "drawn: 1 moves by each side without a man move or a capture"
        );
    }

    #[test]
    fn diagram_shows_pieces_and_square_numbers() {
        let g = Draughts::parse_position(Rules::calgary(), "W:WK1,29:B28").unwrap();
        let d = g.diagram();
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines[1], " 0     R     .     .     .     1  2  3  4");
        assert_eq!(lines[7], " 6     .     .     .     b    25 26 27 28");
        assert_eq!(lines[8], " 7  r     .     .     .       29 30 31 32");
        assert!(lines[9].starts_with("Red to move"));
    }
}
