//! Values and conditions as an effect resolves: the shared arithmetic and logic over what a game
//! answers about its position ([`Judge`]).

use super::ast::{Cond, Id, Side, Value};

/// What a game answers while an ability resolves: how many cards a (compiled) card set holds,
/// its quantities and condition words, and the number the ability recorded.
pub trait Judge<C> {
    fn count(&self, cards: &C) -> i32;
    /// A stat of the one card `cards` names (0 if none).
    fn stat(&self, stat: Id, cards: &C) -> i32;
    fn quantity(&self, q: Id, side: Side) -> i32;
    fn word(&self, w: Id, side: Side) -> bool;
    /// The number the last effect recorded (`x`), of one player's cards or of both.
    fn x(&self, side: Side) -> i32;
}

/// The value of `v` now.
pub fn value<C>(j: &impl Judge<C>, v: &Value<C>) -> i32 {
    match v {
        Value::Num(n) => i32::from(*n),
        Value::Count(c) => j.count(c),
        Value::Quantity(q, s) => j.quantity(*q, *s),
        Value::X(s) => j.x(*s),
        Value::Stat(k, c) => j.stat(*k, c),
        Value::Per { each, of, max } => {
            let n = i32::from(*each) * value(j, of);
            match max {
                Some(m) if *each >= 0 => n.min(i32::from(*m)),
                Some(m) => n.max(-i32::from(*m)),
                None => n,
            }
        }
    }
}

/// Whether `c` holds now.
pub fn cond<C>(j: &impl Judge<C>, c: &Cond<C>) -> bool {
    match c {
        Cond::Cmp(a, op, b) => op.holds(value(j, a), value(j, b)),
        Cond::Any(cs) => j.count(cs) > 0,
        Cond::No(cs) => j.count(cs) == 0,
        Cond::Word(w, s) => j.word(*w, *s),
        Cond::Not(x) => !cond(j, x),
        Cond::And(xs) => xs.iter().all(|x| cond(j, x)),
        Cond::Or(xs) => xs.iter().any(|x| cond(j, x)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::ast::Cmp;
    use super::*;

    /// Card sets are plain counts; quantity 0 is 7 for own and 3 for the enemy; word 0 holds.
    struct T;
    impl Judge<i32> for T {
        fn count(&self, c: &i32) -> i32 {
            *c
        }
        fn stat(&self, k: Id, c: &i32) -> i32 {
            i32::from(k) * 100 + *c
        }
        fn quantity(&self, _: Id, s: Side) -> i32 {
            if s == Side::Enemy {
                3
            } else {
                7
            }
        }
        fn word(&self, w: Id, _: Side) -> bool {
            w == 0
        }
        fn x(&self, s: Side) -> i32 {
            if s == Side::Any {
                2
            } else {
                1
            }
        }
    }

    #[test]
    fn values_and_conditions() {
        let per = |each, n, max| Value::Per {
            each,
            of: Box::new(Value::Count(Box::new(n))),
            max,
        };
        assert_eq!(value(&T, &per(1000, 4, None)), 4000);
        assert_eq!(value(&T, &per(1000, 4, Some(3000))), 3000);
        assert_eq!(value(&T, &per(-1, 5, Some(2))), -2);
        assert_eq!(value(&T, &Value::Quantity(0, Side::Enemy)), 3);
        assert_eq!(value(&T, &Value::<i32>::X(Side::Any)), 2);
        assert_eq!(value(&T, &Value::<i32>::X(Side::Own)), 1);
        assert_eq!(value(&T, &Value::Stat(2, Box::new(5))), 205);
        let ge = |a: i32, b: i16| Cond::Cmp(Value::Count(Box::new(a)), Cmp::Ge, Value::Num(b));
        assert!(cond(&T, &ge(3, 3)) && !cond(&T, &ge(2, 3)));
        assert!(cond(
            &T,
            &Cond::And(vec![ge(3, 2), Cond::Any(1), Cond::No(0)])
        ));
        assert!(!cond(
            &T,
            &Cond::And(vec![ge(3, 2), Cond::Word(1, Side::Own)])
        ));
        assert!(cond(
            &T,
            &Cond::Or(vec![
                Cond::Word(1, Side::Own),
                Cond::Not(Box::new(Cond::Any(0)))
            ])
        ));
    }
}
