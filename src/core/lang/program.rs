//! An ability's body as a flat program, so an engine can stop at a decision and resume from a
//! small program counter in its `Copy` state: effects in order, with jumps for `if`, `choose` and
//! `may`. Compiled once at load from the tree of [`super::ast::Stmt`].

use super::ast::{Cond, Effect, Stmt};

/// One step of a program. `E` is the game's compiled effect, `C` its compiled card set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op<E, C> {
    /// Resolve an effect.
    Do(E),
    /// Go on if the condition holds, else jump to the given step.
    Unless(Cond<C>, u8),
    Jump(u8),
    /// `choose`: the controller picks one of `n` options; the next `n` steps are the options'
    /// [`Op::Jump`]s.
    Choose(u8),
    /// `may`: the controller says yes (go on) or no (jump to the given step, past the "if you
    /// do" part).
    May(u8),
}

/// The most steps of one ability's program (a program counter is a byte).
pub const MAX_STEPS: usize = 200;

/// Compiles a body; `effect` and `cards` compile the game's effects and card sets.
pub fn compile<E, C, X>(
    body: &[Stmt],
    effect: &mut impl FnMut(&Effect) -> Result<E, X>,
    cards: &mut impl FnMut(&super::ast::Cards) -> Result<C, X>,
) -> Result<Vec<Op<E, C>>, X>
where
    X: From<String>,
{
    let mut out = Vec::new();
    block(body, &mut out, effect, cards)?;
    if out.len() > MAX_STEPS {
        return Err(X::from(format!(
            "an ability of more than {MAX_STEPS} steps"
        )));
    }
    Ok(out)
}

fn block<E, C, X: From<String>>(
    body: &[Stmt],
    out: &mut Vec<Op<E, C>>,
    effect: &mut impl FnMut(&Effect) -> Result<E, X>,
    cards: &mut impl FnMut(&super::ast::Cards) -> Result<C, X>,
) -> Result<(), X> {
    for s in body {
        match s {
            Stmt::Do(e) => out.push(Op::Do(effect(e)?)),
            Stmt::If(c, a, b) => {
                let at = out.len();
                out.push(Op::Unless(c.try_map(cards)?, 0));
                block(a, out, effect, cards)?;
                if b.is_empty() {
                    let end = out.len() as u8;
                    set_target(&mut out[at], end);
                } else {
                    let jump = out.len();
                    out.push(Op::Jump(0));
                    let else_at = out.len() as u8;
                    set_target(&mut out[at], else_at);
                    block(b, out, effect, cards)?;
                    let end = out.len() as u8;
                    out[jump] = Op::Jump(end);
                }
            }
            Stmt::Choose(opts) => {
                let at = out.len();
                out.push(Op::Choose(opts.len() as u8));
                for _ in opts {
                    out.push(Op::Jump(0));
                }
                let mut ends = Vec::new();
                for (k, o) in opts.iter().enumerate() {
                    out[at + 1 + k] = Op::Jump(out.len() as u8);
                    block(o, out, effect, cards)?;
                    ends.push(out.len());
                    out.push(Op::Jump(0));
                }
                let end = out.len() as u8;
                for j in ends {
                    out[j] = Op::Jump(end);
                }
            }
            Stmt::May(a, b) => {
                let at = out.len();
                out.push(Op::May(0));
                block(a, out, effect, cards)?;
                block(b, out, effect, cards)?;
                let end = out.len() as u8;
                out[at] = Op::May(end);
            }
        }
        if out.len() > MAX_STEPS {
            return Err(X::from(format!(
                "an ability of more than {MAX_STEPS} steps"
            )));
        }
    }
    Ok(())
}

fn set_target<E, C>(op: &mut Op<E, C>, to: u8) {
    if let Op::Unless(_, t) = op {
        *t = to;
    }
}

#[cfg(test)]
mod tests {
    use super::super::ast::*;
    use super::*;

    fn e(k: u8) -> Stmt {
        Stmt::Do(Effect::new(k))
    }

    fn prog(body: &[Stmt]) -> Vec<Op<u8, ()>> {
        compile(
            body,
            &mut |e: &Effect| Ok::<u8, String>(e.verb),
            &mut |_| Ok(()),
        )
        .unwrap()
    }

    #[test]
    fn control_flow_compiles_to_jumps() {
        let c = Cond::Word(0, Side::Any);
        assert_eq!(prog(&[e(1), e(2)]), vec![Op::Do(1), Op::Do(2)]);
        assert_eq!(
            prog(&[Stmt::If(c.clone(), vec![e(1)], vec![]), e(9)]),
            vec![
                Op::Unless(Cond::Word(0, Side::Any), 2),
                Op::Do(1),
                Op::Do(9)
            ]
        );
        assert_eq!(
            prog(&[Stmt::If(c, vec![e(1)], vec![e(2), e(3)])]),
            vec![
                Op::Unless(Cond::Word(0, Side::Any), 3),
                Op::Do(1),
                Op::Jump(5),
                Op::Do(2),
                Op::Do(3)
            ]
        );
        assert_eq!(
            prog(&[Stmt::Choose(vec![vec![e(1)], vec![e(2), e(3)]]), e(9)]),
            vec![
                Op::Choose(2),
                Op::Jump(3),
                Op::Jump(5),
                Op::Do(1),
                Op::Jump(8),
                Op::Do(2),
                Op::Do(3),
                Op::Jump(8),
                Op::Do(9)
            ]
        );
        assert_eq!(
            prog(&[Stmt::May(vec![e(1)], vec![e(2)]), e(9)]),
            vec![Op::May(3), Op::Do(1), Op::Do(2), Op::Do(9)]
        );
    }
}
