//! An ability's body as a flat program, so an engine can stop at a decision and resume from a
//! small program counter in its `Copy` state: effects in order, with jumps for `if`, `choose` and
//! `may`. Compiled once at load from the tree of [`super::ast::Stmt`].

use super::ast::{Cond, Effect, Stmt, Trigger};

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
    /// `later`: set up the delayed trigger [`Program::later`]`[k]`.
    Later(u8),
}

/// An ability's compiled body, and the bodies of the delayed triggers it sets up (`T` is the
/// game's compiled trigger).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program<E, C, T> {
    pub ops: Vec<Op<E, C>>,
    pub later: Vec<(T, Vec<Op<E, C>>)>,
}

impl<E, C, T> Program<E, C, T> {
    /// Whether the program is only effects, in order (no jumps, choices or delayed triggers).
    pub fn is_plain(&self) -> bool {
        self.ops.iter().all(|o| matches!(o, Op::Do(_)))
    }

    /// The effects, in order, of a plain program.
    pub fn effects(&self) -> impl Iterator<Item = &E> {
        self.ops.iter().filter_map(|o| match o {
            Op::Do(e) => Some(e),
            _ => None,
        })
    }
}

/// The most steps of one ability's program (a program counter is a byte), and of delayed
/// triggers one ability sets up.
pub const MAX_STEPS: usize = 200;
pub const MAX_LATER: usize = 8;

/// How a game compiles the parts of a body.
pub struct Compilers<'a, E, C, T, X> {
    pub effect: &'a mut dyn FnMut(&Effect) -> Result<E, X>,
    pub cards: &'a mut dyn FnMut(&super::ast::Cards) -> Result<C, X>,
    pub trigger: &'a mut dyn FnMut(&Trigger) -> Result<T, X>,
}

/// Compiles a body with the game's compilers.
pub fn compile<E, C, T, X: From<String>>(
    body: &[Stmt],
    c: &mut Compilers<E, C, T, X>,
) -> Result<Program<E, C, T>, X> {
    let mut p = Program {
        ops: Vec::new(),
        later: Vec::new(),
    };
    let mut ops = Vec::new();
    block(body, &mut ops, &mut p.later, c)?;
    p.ops = ops;
    Ok(p)
}

fn block<E, C, T, X: From<String>>(
    body: &[Stmt],
    out: &mut Vec<Op<E, C>>,
    later: &mut Vec<(T, Vec<Op<E, C>>)>,
    c: &mut Compilers<E, C, T, X>,
) -> Result<(), X> {
    for s in body {
        match s {
            Stmt::Do(e) => out.push(Op::Do((c.effect)(e)?)),
            Stmt::If(cond, a, b) => {
                let at = out.len();
                out.push(Op::Unless(cond.try_map(&mut |x| (c.cards)(x))?, 0));
                block(a, out, later, c)?;
                if b.is_empty() {
                    let end = out.len() as u8;
                    set_target(&mut out[at], end);
                } else {
                    let jump = out.len();
                    out.push(Op::Jump(0));
                    let else_at = out.len() as u8;
                    set_target(&mut out[at], else_at);
                    block(b, out, later, c)?;
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
                    block(o, out, later, c)?;
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
                block(a, out, later, c)?;
                block(b, out, later, c)?;
                let end = out.len() as u8;
                out[at] = Op::May(end);
            }
            Stmt::Later(t, a) => {
                let trigger = (c.trigger)(t)?;
                let mut ops = Vec::new();
                block(a, &mut ops, later, c)?;
                if later.len() == MAX_LATER {
                    return Err(X::from(format!(
                        "more than {MAX_LATER} delayed triggers in one ability"
                    )));
                }
                out.push(Op::Later(later.len() as u8));
                later.push((trigger, ops));
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
        full(body).ops
    }

    fn full(body: &[Stmt]) -> Program<u8, (), u8> {
        let mut c = Compilers {
            effect: &mut |e: &Effect| Ok::<u8, String>(e.verb),
            cards: &mut |_| Ok(()),
            trigger: &mut |t: &Trigger| Ok(t.event),
        };
        compile(body, &mut c).unwrap()
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
        let t = Trigger {
            event: 7,
            subject: None,
            side: Side::Any,
            phase: None,
            by: None,
            to: None,
        };
        let p = full(&[e(1), Stmt::Later(t, vec![e(2), e(3)])]);
        assert_eq!(p.ops, vec![Op::Do(1), Op::Later(0)]);
        assert_eq!(p.later, vec![(7, vec![Op::Do(2), Op::Do(3)])]);
        assert!(!p.is_plain() && full(&[e(1), e(2)]).is_plain());
    }
}
