//! Trails actions: every decision a player makes (T-SETUP to T-CURE), as a small `Copy` value.
//! Cards in hidden zones (hand, homebase) are named by card id, so an action means the same thing in
//! every determinization and duplicate copies do not multiply the choices; public cards on the field
//! are named by instance.

use super::state::Lid;
use crate::core::Seat;

/// Three bytes of content, aligned to four: a list's element is then one 32-bit store and load,
/// indexed by a scale of 4 (three bytes took two stores and a multiply by three).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(align(4))]
pub enum Action {
    /// Pass, keep, skip, end the step, or cure nothing, depending on the step.
    #[default]
    Pass,
    /// T-SETUP-3: put this card from hand on the bottom of the deck.
    Mulligan(Lid),
    /// T-PREP-2: put this card from hand into the homebase face down and ready.
    Homebase(Lid),
    /// T-PREP-3: play this UNIT or ITEM from hand.
    Deploy(Lid),
    /// T-ICON-DISPATCH: play this face-down UNIT from the homebase.
    Dispatch(Lid),
    /// T-ICON-DISPATCH: put this card from hand into the homebase, actioned.
    DispatchPut(Lid),
    /// T-RES-2: play an EVENT from hand or from face down in the homebase.
    Event { card: Lid, from_homebase: bool },
    /// T-RES-3: play a UNIT's arts from hand or from face down in the homebase.
    Arts { card: Lid, from_homebase: bool },
    /// T-RES-4: turn a face-down BASE face up.
    Base(Lid),
    /// A craft with a cost of the player's card `inst` (field, or face-up BASE), its `ability`.
    Craft { inst: u8, ability: u8 },
    /// T-COMBAT-2: this ready UNIT attacks (first member of a group).
    Attack(u8),
    /// T-SCLM-1: this ready UNIT joins the attacking group.
    Join(u8),
    /// T-COMBAT-2: the attack targets this opposing UNIT.
    TargetUnit(u8),
    /// T-COMBAT-2: the attack targets the opponent.
    TargetPlayer,
    /// T-SCLM-3: this UNIT supports the defending UNIT.
    Support(u8),
    /// T-SCLM-1: the defender fights back this attacking UNIT.
    FightBack(u8),
    /// T-CURE-2: cure this stunned UNIT.
    Cure(u8),
    /// The UNIT chosen for an effect: its owner and instance.
    Choose { seat: Seat, inst: u8 },
    /// T-TERM-PLAN: put this looked-at card on top (below those already put on top).
    PlanTop(Lid),
    /// T-TERM-PLAN: put this looked-at card on the bottom.
    PlanBottom(Lid),
    /// T-TERM-REBUILD: destroy this homebase card (face up or face down).
    Rebuild { card: Lid, face_up: bool },
    /// `choose`: option `k` (from 0) of the ability resolving.
    Mode(u8),
    /// `may`: yes (no is [`Action::Pass`]).
    Yes,
    /// A card chosen for an effect, or discarded, outside the field: its owner, its card and
    /// whether it lies face up (a homebase card); copies alike are one choice (decision
    /// T-EFF-11).
    Pick { seat: Seat, card: Lid, up: bool },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn action_is_small() {
        // Actions are copied into every list and tree node.
        assert!(
            std::mem::size_of::<Action>() <= 4,
            "{}",
            std::mem::size_of::<Action>()
        );
        // One aligned 32-bit word a list element (bb4ebf7).
        assert_eq!(std::mem::align_of::<Action>(), 4);
    }
}
