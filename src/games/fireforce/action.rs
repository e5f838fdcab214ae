//! Fire Force actions: every decision a player makes (F-SETUP to F-EFF), as a small `Copy` value.

use super::cards::CardId;

/// Every decision of a Fire Force game, as a small `Copy` value. Cards in hand and in the Flame
/// deck are named by card id (the same action in every determinization, one action per distinct
/// card); cards on the Scene and in THE ADOLLA, which both players see, by instance.
/// Three bytes of content, aligned to four: a list's element is then one 32-bit store and load,
/// indexed by a scale of 4 (as Trails' actions; three bytes took two stores and a multiply by
/// three).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(align(4))]
pub enum Action {
    /// No block, no (more) reaction or support, no trigger, no pick.
    #[default]
    Pass,
    /// F-SETUP-2: keep the hand, or return it, shuffle and draw 5.
    Keep,
    Redraw,
    /// F-PREP-5: this Flame card of the Flame deck (setup, preparation, effects).
    Flame(CardId),
    /// F-MAIN-1: dispatch this Unit from hand.
    Dispatch(CardId),
    /// F-MAIN-1: play this non-Reaction Event from hand.
    Play(CardId),
    /// F-KW-ACTIVE, F-KW-REACTION: activate ability `k` of this Unit
    /// ([`PRAY`](super::state::PRAY) for Pray).
    Activate(u8, u8),
    /// F-BAT-1: attack with this Unit.
    Attack(u8),
    /// F-BAT-2: attack this exhausted Unit, or the player ([`NONE`](super::state::NONE)).
    Target(u8),
    /// F-BAT-4: block with this Unit.
    Block(u8),
    /// F-BAT-5: play this Reaction Event from hand.
    React(CardId),
    /// F-BAT-6: put this Unit with support power from hand into THE ADOLLA.
    Support(CardId),
    /// F-BAT-8: activate the revealed Life card's trigger.
    UseTrigger,
    /// A card an effect or rule asks for: P2's instances are numbered from 64.
    Pick(u8),
    /// A card of a hand, a deck or THE ADOLLA for an effect, by card id (decision F-EFF-10).
    Card(CardId),
    /// `choose`: option `k` (from 0; decision F-EFF-4).
    Mode(u8),
    /// `may`: yes (no is [`Action::Pass`]).
    Yes,
    /// F-MAIN-1: end the main phase.
    End,
    /// Decision F-COST-3: pay with these ready cards with Flame — bit `j` is the chooser's `j`-th
    /// ready card with Flame by instance (`FireForceGame::payment_cards`).
    Pay(u8),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Actions are copied into every list and tree node: one 32-bit word, aligned to it.
    #[test]
    fn action_is_one_aligned_word() {
        assert_eq!(std::mem::size_of::<Action>(), 4);
        assert_eq!(std::mem::align_of::<Action>(), 4);
    }
}
