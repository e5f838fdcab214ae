use std::fmt;

/// One of the two players. Seat 0 plays the first deck given, seat 1 the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Seat {
    #[default]
    P1 = 0,
    P2 = 1,
}

impl Seat {
    pub const NUM: usize = 2;
    pub const ALL: [Seat; 2] = [Seat::P1, Seat::P2];

    /// How many cards a mask per seat (bit `i`: that seat's card `i`) names.
    #[inline]
    pub fn count_in(m: [u64; 2]) -> u32 {
        m[0].count_ones() + m[1].count_ones()
    }

    /// The first card a mask per seat names: P1's lowest, else P2's lowest.
    #[inline]
    pub fn first_in(m: [u64; 2]) -> Option<(Seat, u8)> {
        Seat::ALL
            .into_iter()
            .find(|q| m[q.index()] != 0)
            .map(|q| (q, m[q.index()].trailing_zeros() as u8))
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn other(self) -> Seat {
        match self {
            Seat::P1 => Seat::P2,
            Seat::P2 => Seat::P1,
        }
    }

    /// `P1` or `P2` (either case), as scenarios and logs write a seat.
    pub fn from_name(w: &str) -> Option<Seat> {
        match w {
            "P1" | "p1" => Some(Seat::P1),
            "P2" | "p2" => Some(Seat::P2),
            _ => None,
        }
    }

    #[inline]
    pub fn from_index(i: usize) -> Seat {
        if i == 0 {
            Seat::P1
        } else {
            Seat::P2
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.index() + 1)
    }
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Seat),
    Draw,
}

impl Outcome {
    /// The score of `seat`: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn score(self, seat: Seat) -> f64 {
        match self {
            Outcome::Win(w) if w == seat => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Seat;

    #[test]
    fn masks_per_seat_count_and_give_their_first_card() {
        assert_eq!(Seat::count_in([0b1010, 0b1]), 3);
        assert_eq!(Seat::first_in([0b1000, 0b1]), Some((Seat::P1, 3)));
        assert_eq!(Seat::first_in([0, 0b100]), Some((Seat::P2, 2)));
        assert_eq!(Seat::first_in([0, 0]), None);
        assert_eq!(Seat::count_in([0, 0]), 0);
    }
}
