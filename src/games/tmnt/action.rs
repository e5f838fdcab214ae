//! TMNT actions: every decision a player makes (M-SETUP to M-EFFECTS), as a small `Copy` value.

use super::cards::CardId;

/// Every decision of a TMNT game, as a small `Copy` value. Cards in a hand, the Trash or the
/// pending texts are named by card id (the same action in every determinization, one action per
/// distinct card); a card for `target … card` by seat and instance (`seat << 6 | instance`); a
/// kept character by its Block Zone (0 is Block Zone 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Action {
    /// No Event, no Item, no more attack cards, no counter, keep nothing.
    #[default]
    Pass,
    /// M-ADJ-4, `discard`.
    Discard(CardId),
    /// M-SET-3.
    Set(CardId),
    /// M-EVT-1.
    Event(CardId),
    /// M-ITM-1, M-ITM-2: the Item, then the card paid for it.
    Item(CardId),
    Pay(CardId),
    /// M-ATK-3.
    Attack(CardId),
    /// M-ATK-7.
    Counter(CardId),
    /// M-ATK-13.
    Keep(u8),
    /// M-EFFECTS-2.
    Order(CardId),
    /// `target … card`.
    Choose(u8),
    /// `salvage`.
    Salvage(CardId),
    /// `choose`: an option (0 is the first).
    Mode(u8),
    /// `may`: yes (`Pass` is no).
    Yes,
    /// A card by id for `move`, `search`, `dig`.
    Take(CardId),
    /// `arrange`: the next card on top.
    Top(CardId),
    /// M-ACT-1: an `anytime` text of an Item.
    Activate(CardId),
}
