//! [`GameDef`]: what the command line, the logs and the conformance suite need of a game beyond
//! search's [`Game`] trait — its card file and decks, building a match, the action notation, the
//! views of one seat, its scenario format, and the checks of its state.
//!
//! Every game implements both traits on one type (the match context) and registers it once in
//! `crate::games` (the registry). Nothing here names a game.

use super::tensor::{ActionCode, ActionKind, ObsLayout, ObsOut};
use super::{Error, Game, InputError, InputErrors, Outcome, Reason, Seat};
use std::path::Path;

/// The facts about a game that are constants: names, files, folders.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// The name on the command line and in files (`--game NAME`): lower case, no spaces.
    pub name: &'static str,
    /// The name people read (the game's title).
    pub title: &'static str,
    /// The prefix of the game's rule IDs (`T-` for `T-DECK-1`): tests and code cite them.
    pub rule_prefix: &'static str,
    /// The game's rules document (with its rule IDs), relative to the repository root.
    pub rules: &'static str,
    /// The folder of the bundled decks and card file, relative to the repository root.
    pub deck_dir: &'static str,
    /// The extension of deck files (without the dot).
    pub deck_ext: &'static str,
    /// The name of the card file beside a game's decks.
    pub card_file: &'static str,
    /// The bundled decks `arena` plays when none are given (file stems in `deck_dir`).
    pub arena_decks: &'static [&'static str],
    /// The deck formats, as the deck files name them.
    pub formats: &'static [&'static str],
    /// What stands in for a card in ablation (`cards`): the game's neutral filler.
    pub filler: &'static str,
    /// The game's words of the card language (`docs/cards.md`), `None` for a game whose cards
    /// have no text, and the card file's text columns with the head each is read with.
    pub lang: Option<&'static crate::core::lang::vocab::Vocab>,
    pub text_columns: crate::core::lang::migrate::TextColumns,
}

/// A numeric column of a card file that `balance` may change (`docs/tuning.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunable {
    /// The column's name in the card file's header.
    pub column: &'static str,
    /// One step: the game's unit (1, or 1000 for Fire Force's power).
    pub step: i64,
    /// The least and the most value the card file allows.
    pub least: i64,
    pub most: i64,
    /// Whether a higher value makes the card stronger for its owner (power) or weaker (cost).
    pub raise_helps: bool,
}

impl Tunable {
    pub const fn new(
        column: &'static str,
        step: i64,
        least: i64,
        most: i64,
        raise_helps: bool,
    ) -> Tunable {
        Tunable {
            column,
            step,
            least,
            most,
            raise_helps,
        }
    }
}

/// The result of a scenario file: the final state as JSON, and what went wrong.
#[derive(Clone, Debug, Default)]
pub struct ScenarioReport {
    /// The final state (and the expectations checked), pretty-printed JSON.
    pub json: String,
    /// An action that was not legal: the message names the file, line and the legal actions.
    pub illegal: Option<String>,
    /// Expectations that failed, one message each.
    pub failed: Vec<String>,
}

/// The optional capabilities of a game beyond play, as flags (OpenSpiel's `GameType`): what a
/// command that needs one asks before it starts ([`require`]), so that a game without it is told
/// so in one line (exit code 2) rather than run with the defaults' empty answers. Capabilities
/// whose default method says itself that the game lacks them (card texts, scenarios, sealed pools)
/// need no flag. See [`GameDef`] for each capability's items and defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// Card statistics (`cards`): [`GameDef::deck_cards`], [`GameDef::card_name`] and
    /// [`GameDef::ablate`] are the game's own, and so are [`Game`]'s card-statistics hooks
    /// (`cards_out_of_deck`, `cards_in_hand`, `card_use`).
    pub card_stats: bool,
    /// Tuning (`tune`, `balance`; `docs/tuning.md`): [`GameDef::card_count`],
    /// [`GameDef::replace`], [`GameDef::deck_file`], [`GameDef::tunable_deck`] and
    /// [`GameDef::TUNABLE`] are the game's own. Needs `card_stats` (moves are named by card).
    pub tuning: bool,
    /// Tensors for learning agents (the Python package, `docs/observation.md`):
    /// [`GameDef::obs_layout`], [`GameDef::observe`], [`GameDef::action_kinds`] and
    /// [`GameDef::action_code`] are the game's own.
    pub tensors: bool,
}

impl Capabilities {
    /// No optional capability: what a game that writes only [`GameDef`]'s required items has.
    pub const NONE: Capabilities = Capabilities {
        card_stats: false,
        tuning: false,
        tensors: false,
    };
    /// Every capability.
    pub const ALL: Capabilities = Capabilities {
        card_stats: true,
        tuning: true,
        tensors: true,
    };
}

/// A capability a command needs of its game ([`Capabilities`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capability {
    /// Card statistics: `cards`.
    CardStats,
    /// Tuning: `tune`, `balance`.
    Tuning,
    /// Observation tensors and stable action ids: the Python package's environments.
    Tensors,
}

impl Capability {
    /// Whether `caps` has this capability.
    pub fn of(self, caps: Capabilities) -> bool {
        match self {
            Capability::CardStats => caps.card_stats,
            Capability::Tuning => caps.tuning && caps.card_stats,
            Capability::Tensors => caps.tensors,
        }
    }

    /// The capability's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Capability::CardStats => "card statistics",
            Capability::Tuning => "tuning (no card swaps or card-file changes)",
            Capability::Tensors => "observation tensors",
        }
    }
}

/// `Ok` when game `G` has `cap` ([`GameDef::CAPS`]); else a usage error (exit code 2) saying
/// "the TITLE has no card statistics" (or tuning). Commands that need a capability call it first.
pub fn require<G: GameDef>(cap: Capability) -> Result<(), super::Error> {
    if cap.of(G::CAPS) {
        Ok(())
    } else {
        Err(super::Error::usage(format!(
            "the {} has no {}",
            G::INFO.title,
            cap.name()
        )))
    }
}

/// What a game offers beyond [`Game`]: files, matches, text and checks. See the module doc.
///
/// **Required** (14 items: what every game must say, enough for `matrix`, `arena`, `duel`, `play`,
/// `validate`, `serve` and the conformance suite): [`GameDef::INFO`], the types `Cards` and
/// `Deck`, [`GameDef::bundled_cards`], [`GameDef::parse_cards`], [`GameDef::is_card_file`],
/// [`GameDef::parse_deck`], [`GameDef::deck_name`], [`GameDef::new_match`],
/// [`GameDef::content_hash`], [`GameDef::match_cards`], and the notation and views:
/// [`GameDef::parse_action`], [`GameDef::render`], [`GameDef::info_key`].
///
/// **Optional**, each with a default (a game overrides what it has):
/// - *card statistics* (`cards`; flag [`Capabilities::card_stats`]): `deck_cards` (default: no
///   cards), `card_name` (default: `card ID`), `ablate` (default: the deck unchanged),
///   `card_class` (default: `None`, every legal card is a like replacement);
/// - *tuning* (`tune`, `balance`; flag [`Capabilities::tuning`]): `card_count` (default 0),
///   `replace` (default `None`), `deck_file` (default: the comment line only), `tunable_deck`
///   (default `Ok`), `TUNABLE` (default none);
/// - *tensors* (the Python package's environments; flag [`Capabilities::tensors`]):
///   `obs_layout` (default: no slots), `observe` (default: nothing), `action_kinds` (default:
///   none), `action_code` (default: kind 0);
/// - *the match as a player may know it* (`process:` agents): `match_deck` (default: no list),
///   `deck_list` (from `match_deck` and `card_name`);
/// - *text*: `narrate` (default: the action's text to whoever sees the actor's cards, who acted to
///   the others), `log_start` (default: who moves first), `card_text` (default: an error, "the
///   TITLE has no card texts"), `ending` (default: from [`Game::outcome`]), `deck_summary`
///   (default: `N cards` with card statistics, else `valid`);
/// - *checks*: `check_invariants` (default: none, `Ok`);
/// - *formats*: `run_scenario` (default: an error, "the TITLE has no scenario format"),
///   `sealed` and `DEFAULT_PACK` (default: an error, "the TITLE has no sealed format"),
///   `bench_match` (default: the first two [`GameInfo::arena_decks`] of the bundled cards, read
///   from the game's deck folder in the source tree; an error where it is not), `load_deck` (read the file, then
///   `parse_deck`).
pub trait GameDef: Game + super::Policy + Sized + Send + Sync + 'static {
    // ---- required: what every game says ----

    /// The constants: name, folders, rule-ID prefix.
    const INFO: GameInfo;
    /// The card database of a card file.
    type Cards: Clone + Send + Sync;
    /// One player's decks (a game may need more than one: a main deck and a side deck).
    type Deck: Clone + Send + Sync;

    /// The card pool bundled into the binary (the card file of [`GameInfo::deck_dir`]).
    fn bundled_cards() -> Self::Cards;
    /// Parses a card file; the error names the file, line and reason.
    fn parse_cards(text: &str, file: &str) -> Result<Self::Cards, InputError>;
    /// Whether `text` looks like this game's card file (its header), to infer the game.
    fn is_card_file(text: &str) -> bool;
    /// Reads and checks a deck file's text (`file` names it in errors, `name` is the deck's name).
    fn parse_deck(
        cards: &Self::Cards,
        text: &str,
        file: &str,
        name: &str,
    ) -> Result<Self::Deck, InputErrors>;
    /// The deck's name (its file stem).
    fn deck_name(deck: &Self::Deck) -> &str;
    /// The match of `decks[0]` (seat P1) against `decks[1]` (seat P2).
    fn new_match(cards: &Self::Cards, decks: [&Self::Deck; 2]) -> Self;
    /// A hash of everything that decides the games of a run with `decks`: every card of every
    /// deck as the card file defines it, and the version of the rules. Runs with different hashes
    /// are never merged or resumed into each other.
    fn content_hash(cards: &Self::Cards, decks: &[&Self::Deck]) -> String;
    /// The card database of this match.
    fn match_cards(&self) -> &Self::Cards;
    /// Parses an action in the game's notation (as [`Game::action_text`] writes it), legal in
    /// `state`.
    fn parse_action(&self, state: &Self::State, text: &str) -> Result<Self::Action, Reason>;
    /// What `seat` may see of `state`, as text for a person at the table.
    fn render(&self, state: &Self::State, seat: Seat) -> String;
    /// Everything `seat` knows of `state`, as a string: two states with the same key are the same
    /// information set for that seat (OpenSpiel's information-state string). Agents may decide
    /// only from this.
    fn info_key(&self, state: &Self::State, seat: Seat) -> String;

    // ---- optional: the capabilities ----

    /// The game's optional capabilities that a command asks before it starts ([`require`]).
    /// Default: none.
    const CAPS: Capabilities = Capabilities::NONE;

    // ---- files (optional) ----

    /// Reads and checks a deck file against the game's formats; the error lists every problem
    /// with its file and line. The deck's name is the file stem. Default: read the file (bounded,
    /// UTF-8), then [`GameDef::parse_deck`].
    fn load_deck(cards: &Self::Cards, path: &Path) -> Result<Self::Deck, InputErrors> {
        use super::input::{read_text, MAX_TEXT_BYTES};
        let file = path.display().to_string();
        let text = read_text(path, MAX_TEXT_BYTES)?;
        let name = path
            .file_stem()
            .map_or_else(|| file.clone(), |s| s.to_string_lossy().into_owned());
        Self::parse_deck(cards, &text, &file, &name)
    }
    /// One line about a valid deck for `validate` ("Strategy format, 50 cards"). Default: its
    /// number of cards when the game has card statistics ([`GameDef::deck_cards`]), else `valid`.
    fn deck_summary(deck: &Self::Deck) -> String {
        if Self::CAPS.card_stats {
            let n: usize = Self::deck_cards(deck).iter().map(|&(_, k)| k).sum();
            format!("{n} cards")
        } else {
            "valid".into()
        }
    }

    // ---- tensors (the Python package; `CAPS.tensors`; `docs/observation.md`) ----

    /// The slots of the observation vector of matches of `cards` ([`super::tensor`]). Its length
    /// depends on the card file only. Default: no slots.
    fn obs_layout(_cards: &Self::Cards) -> ObsLayout {
        ObsLayout::new()
    }
    /// Writes what `seat` may see of `state` into `out`, every slot of
    /// [`GameDef::obs_layout`] in order, each value within its slot's bounds. Only what the seat
    /// may see: two states the seat cannot tell apart (a [`Game::determinize`] for it) give the
    /// same bytes. Default: nothing (no slots).
    fn observe(&self, _state: &Self::State, _seat: Seat, _out: &mut ObsOut) {}
    /// The kinds of action of matches of `cards`, each with the range of its argument: the
    /// stable action ids are their blocks in order ([`ActionSpace`](super::tensor::ActionSpace)). Default: none.
    fn action_kinds(_cards: &Self::Cards) -> Vec<ActionKind> {
        Vec::new()
    }
    /// What `action`, legal in `state`, is for a learning agent: its kind and argument (the
    /// stable id; two legal actions of one position never share one), and the card and slot it
    /// involves. It must depend only on what the player to move may see. Default: kind 0,
    /// argument 0.
    fn action_code(&self, _state: &Self::State, _action: Self::Action) -> ActionCode {
        ActionCode::default()
    }

    // ---- card statistics (`cards`; `CAPS.card_stats`) ----

    /// The distinct cards of a deck as card ids (those of [`Game::card_use`]), in deck order, with
    /// their copies. Default: none.
    fn deck_cards(_deck: &Self::Deck) -> Vec<(u32, usize)> {
        Vec::new()
    }
    /// A card's full name. Default: `card ID`.
    fn card_name(_cards: &Self::Cards, id: u32) -> String {
        format!("card {id}")
    }
    /// The deck with one copy of card `id` replaced by the game's neutral filler (ablation);
    /// `cards` may gain the filler card. Default: the deck unchanged.
    fn ablate(_cards: &mut Self::Cards, deck: &Self::Deck, _id: u32) -> Self::Deck {
        deck.clone()
    }

    /// What kind of card `id` is, for value over replacement (`crate::sim::cards::replacements`):
    /// a label (its type, and for a game whose types have kinds, its kind) and the number its
    /// comparable cards are near — its cost, or the power of a game whose cards have no cost.
    /// Cards of the same label whose numbers differ by at most one are *like* cards. Default:
    /// `None` (no card is like another: the replacements are drawn from every legal card).
    fn card_class(_cards: &Self::Cards, _id: u32) -> Option<(&'static str, i64)> {
        None
    }

    // ---- tuning (`tune`, `balance`: `docs/tuning.md`; `CAPS.tuning`) ----

    /// The number of cards of the card database: card ids are `0..card_count`. Default: 0.
    fn card_count(_cards: &Self::Cards) -> usize {
        0
    }
    /// The deck with the first `copies` copies of card `remove` replaced, where they stand, by
    /// card `add` (in the part of the deck that held them: main deck, side deck); `None` when the
    /// deck holds fewer copies. The result is not checked against the formats:
    /// `crate::sim::tune::swap` checks it by writing and reading it back. Default: `None`.
    fn replace(_deck: &Self::Deck, _remove: u32, _add: u32, _copies: usize) -> Option<Self::Deck> {
        None
    }
    /// The deck as a deck file that [`GameDef::parse_deck`] reads back to the same cards (the
    /// first line a comment: `comment`). Default: the comment line alone.
    fn deck_file(_cards: &Self::Cards, _deck: &Self::Deck, comment: &str) -> String {
        format!("# {comment}\n")
    }
    /// Whether `tune` may swap cards of this deck: `Err` says why not (a sealed deck holds only
    /// the cards of its opened packs, which the deck file does not record). Default: `Ok`.
    fn tunable_deck(_deck: &Self::Deck) -> Result<(), Reason> {
        Ok(())
    }
    /// The numeric columns of the card file that `balance` may change by one step. Default: none.
    const TUNABLE: &'static [Tunable] = &[];

    // ---- the match, as a player may know it (`process:` agents) ----

    /// The card ids of `seat`'s deck(s) in this match, every copy, in deck-file order. Default:
    /// none (process agents are told empty deck lists).
    fn match_deck(&self, _seat: Seat) -> Vec<u32> {
        Vec::new()
    }
    /// `seat`'s deck list in this match: (card id, name, copies), distinct cards in first-seen
    /// order. Both lists are open to both players (the built-in search agents redeal hidden cards
    /// from them), so process agents are told both (`docs/protocol.md`).
    fn deck_list(&self, seat: Seat) -> Vec<(u32, String, usize)> {
        distinct_with_copies(self.match_deck(seat))
            .into_iter()
            .map(|(id, n)| (id, Self::card_name(self.match_cards(), id), n))
            .collect()
    }

    // ---- text ----

    /// The log lines of `action` by `seat` from `before` to `after`, as `viewer` may see them.
    /// Default: `SEAT: ACTION` (the action's text) for a viewer who sees `seat`'s hidden cards,
    /// `SEAT acts.` for the others (the text may name a hidden card); a game whose actions are
    /// public overrides it to say more.
    fn narrate(
        &self,
        before: &Self::State,
        seat: Seat,
        action: Self::Action,
        _after: &Self::State,
        viewer: Viewer,
    ) -> Vec<String> {
        if viewer.sees(seat) {
            vec![format!("{seat}: {}", self.action_text(before, action))]
        } else {
            vec![format!("{seat} acts.")]
        }
    }
    /// The first lines of a game's log, before its first action (who moves first, the phase the
    /// game opens with). Default: who moves first.
    fn log_start(&self, _state: &Self::State, first: Seat) -> Vec<String> {
        vec![format!("{first} moves first.")]
    }
    /// The full text of a card of `cards` named by `query` (its name, or part of it), for `show
    /// CARD` and `tcgsim cards show`: its printed fields, its abilities in plain English and in
    /// the card language. Default: an error, the game has no card texts (and `validate` cannot
    /// infer the game from a deck's card names).
    fn card_text(_cards: &Self::Cards, _query: &str) -> Result<String, Reason> {
        Err(Reason(format!(
            "the {} has no card texts",
            Self::INFO.title
        )))
    }
    /// Why and how a finished game ended, one line ("P1 won the bond check, bond 12 to 0").
    /// Default: the outcome alone ("P1 won", "drawn", "not over").
    fn ending(&self, state: &Self::State) -> String {
        match self.outcome(state) {
            None => "not over".into(),
            Some(Outcome::Draw) => "drawn".into(),
            Some(Outcome::Win(w)) => format!("{w} won"),
        }
    }

    // ---- checks ----

    /// The game's invariants of a reachable state; the error says which one broke. Default: none
    /// checked (`Ok`).
    fn check_invariants(&self, _state: &Self::State) -> Result<(), Reason> {
        Ok(())
    }

    // ---- formats: scenarios, sealed, bench ----

    /// Runs a scenario file (the game's own format). `cards` overrides the scenario's card file;
    /// `dir` is the folder card-file paths in the scenario are relative to. Default: an error, the
    /// game has no scenario format.
    fn run_scenario(
        _text: &str,
        _file: &str,
        _dir: &Path,
        _cards: Option<Self::Cards>,
    ) -> Result<ScenarioReport, Error> {
        Err(Error::usage(format!(
            "the {} has no scenario format",
            Self::INFO.title
        )))
    }
    /// A sealed pool of `packs` packs (`pack` in the game's notation) as a deck file's text.
    /// `seed` decides the packs. Default: an error, the game has no sealed format.
    fn sealed(_cards: &Self::Cards, _packs: u64, _pack: &str, _seed: u64) -> Result<String, Error> {
        Err(Error::usage(format!(
            "the {} has no sealed format",
            Self::INFO.title
        )))
    }
    /// The default pack notation of [`GameDef::sealed`].
    const DEFAULT_PACK: &'static str = "";
    /// The match `bench` measures: two bundled decks, independent of the working directory.
    /// Default: the first two [`GameInfo::arena_decks`] with the bundled cards, read from
    /// [`GameInfo::deck_dir`] in the source tree this binary was built from (a game whose decks
    /// are bundled into the binary overrides it); an error when the game names fewer than two
    /// arena decks or their files cannot be read (a binary moved away from its source tree).
    fn bench_match() -> Result<Self, Error> {
        let info = Self::INFO;
        let cards = Self::bundled_cards();
        let deck = |k: usize| -> Result<Self::Deck, Error> {
            let name = info.arena_decks.get(k).ok_or_else(|| {
                Error::usage(format!("the {} names no two decks to bench", info.title))
            })?;
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(info.deck_dir)
                .join(format!("{name}.{}", info.deck_ext));
            Ok(Self::load_deck(&cards, &path)?)
        };
        let (a, b) = (deck(0)?, deck(1)?);
        Ok(Self::new_match(&cards, [&a, &b]))
    }
}

/// Whether `a` and `b` hold the same items, each as many times (the order aside): an invariant's
/// check that a seat's card instances are its deck's cards.
pub fn same_multiset<T: Ord + Clone>(a: &[T], b: &[T]) -> bool {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

/// The distinct ids of a deck's cards in first-seen order, with their copies: what
/// [`GameDef::deck_cards`] returns for a deck that is a list of card ids.
pub fn distinct_with_copies(ids: impl IntoIterator<Item = u32>) -> Vec<(u32, usize)> {
    let mut v: Vec<(u32, usize)> = Vec::new();
    for id in ids {
        match v.iter_mut().find(|(x, _)| *x == id) {
            Some((_, n)) => *n += 1,
            None => v.push((id, 1)),
        }
    }
    v
}

/// Deck file lines `COUNT LABEL`, one per distinct card in first-seen order: what
/// [`GameDef::deck_file`] writes for a deck that is a list of card ids.
pub fn deck_lines(ids: impl IntoIterator<Item = u32>, label: impl Fn(u32) -> String) -> String {
    let mut t = String::new();
    for (id, n) in distinct_with_copies(ids) {
        t.push_str(&format!("{n} {}\n", label(id)));
    }
    t
}

/// `ids` with the first `copies` entries equal to `remove` replaced, where they stand, by `add`;
/// `None` when `ids` holds fewer. What [`GameDef::replace`] does for a deck that is a list of card
/// ids (ids of any integer type that converts to and from `u32`).
pub fn replace_ids<T>(ids: &[T], remove: u32, add: u32, copies: usize) -> Option<Vec<T>>
where
    T: Copy + Into<u32> + TryFrom<u32>,
{
    let add = T::try_from(add).ok()?;
    let mut v = ids.to_vec();
    let mut left = copies;
    for x in v.iter_mut() {
        if left > 0 && (*x).into() == remove {
            *x = add;
            left -= 1;
        }
    }
    (left == 0 && copies > 0).then_some(v)
}

/// The legal action whose text ([`Game::action_text`]) is `text`, ignoring case and runs of
/// spaces; the error lists the legal actions. The parser of every game whose notation is the text
/// of its legal actions.
pub fn action_by_text<G: Game>(g: &G, s: &G::State, text: &str) -> Result<G::Action, Reason> {
    use super::input::{excerpt, norm};
    let want = norm(text);
    let mut legal = super::ActionList::new();
    g.legal_actions(s, &mut legal);
    if let Some(&a) = legal.iter().find(|&&a| norm(&g.action_text(s, a)) == want) {
        return Ok(a);
    }
    let offered: Vec<String> = legal.iter().map(|&a| g.action_text(s, a)).collect();
    Err(Reason(format!(
        "\"{}\" is not a legal action; legal now: {}",
        excerpt(text),
        offered.join("; ")
    )))
}

/// The highest turn a scenario's `[position]` may write (a game's turn count has room above it).
pub const MAX_POSITION_TURN: u16 = 10_000;

/// A scenario's written position takes each zone's cards from the player's deck list: the lowest
/// instance among `free` whose card (`card`, by instance) is `id`, taken out of `free`. The error
/// names the zone, the card (`label`) and how many of it the list holds.
pub fn take_listed<C: PartialEq + Copy>(
    card: &[C],
    free: &mut u64,
    id: C,
    zone: &str,
    q: Seat,
    label: &str,
) -> Result<u8, Reason> {
    let i = super::Bits(*free)
        .find(|&i| card.get(i as usize) == Some(&id))
        .ok_or_else(|| {
            let listed = card.iter().filter(|&&c| c == id).count();
            Reason(format!(
                "{zone} {q}: one {label} more than {q}'s deck list has for its zones ({listed} in the list)"
            ))
        })?;
    *free &= !(1u64 << i);
    Ok(i)
}

/// A written deck must hold the cards of the list that no written zone took: the error for
/// `q`'s `names` left over.
pub fn unplaced_cards(q: Seat, names: &[String]) -> String {
    format!(
        "{q}: cards of its deck list are in no zone: {} (write them in a zone)",
        names.join(", ")
    )
}

/// The texts of the legal actions now, in the engine's order (what scenarios compare and list).
pub fn legal_texts<G: Game>(g: &G, s: &G::State) -> Vec<String> {
    let mut legal = super::ActionList::new();
    g.legal_actions(s, &mut legal);
    legal.iter().map(|&a| g.action_text(s, a)).collect()
}

/// A scenario's membership expectation: `legal+: ACTION` (the action is legal now) or `legal-:
/// ACTION` (it is not), checked against the texts of the legal actions (compared as
/// [`super::input::norm`] compares names); `None` when `key` is neither.
pub fn legal_membership(key: &str, want: &str, legal: &[String]) -> Option<Result<(), Reason>> {
    use super::input::norm;
    let plus = match key {
        "legal+" => true,
        "legal-" => false,
        _ => return None,
    };
    let w = norm(want);
    if w.is_empty() {
        return Some(Err(Reason(format!("{key}: names no action"))));
    }
    let has = legal.iter().any(|x| norm(x) == w);
    Some(if has == plus {
        Ok(())
    } else {
        Err(Reason(format!(
            "{key}: \"{want}\" is {}legal; legal: {}",
            if has { "" } else { "not " },
            legal.join(" | ")
        )))
    })
}

/// Plays a scenario's actions (`(line, text)`, each `TEXT` or `P1: TEXT`) from `s`, checking the
/// game's invariants after each. `Ok(Some(message))` for the first action that is illegal or
/// names a seat not to move (the message names the file and line; the actions after it are not
/// played), `Err` for a broken invariant.
pub fn play_actions<G: GameDef>(
    g: &G,
    s: &mut G::State,
    actions: &[(usize, String)],
    file: &str,
) -> Result<Option<String>, InputError> {
    use super::input::excerpt;
    for (k, (n, a)) in actions.iter().enumerate() {
        let (who, text) = match a.split_once(':') {
            Some((w, t)) if Seat::from_name(w.trim()).is_some() => {
                (Seat::from_name(w.trim()), t.trim())
            }
            _ => (None, a.as_str()),
        };
        let mover = g.to_move(s);
        if let Some(w) = who {
            if mover != Some(w) {
                return Ok(Some(format!(
                    "{file}:{n}: action {} \"{}\": {w} is not to move ({})",
                    k + 1,
                    excerpt(a),
                    mover.map_or("the game is over".into(), |m| format!("{m} is"))
                )));
            }
        }
        match g.parse_action(s, text) {
            Ok(act) => {
                g.apply(s, act);
                if let Err(e) = g.check_invariants(s) {
                    return Err(InputError::new(
                        file,
                        *n,
                        format!("invariant broken after this action: {e}"),
                    ));
                }
            }
            Err(e) => {
                return Ok(Some(format!(
                    "{file}:{n}: action {} is illegal: {e}",
                    k + 1
                )))
            }
        }
    }
    Ok(None)
}

/// Whose view a log takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// Sees every card (`--reveal`).
    All,
    /// Sees what is public only.
    Public,
    /// Sees what one seat may see (a person playing that seat).
    Seat(Seat),
}

impl Viewer {
    /// Whether this viewer sees the hidden cards of `seat`.
    pub fn sees(self, seat: Seat) -> bool {
        match self {
            Viewer::All => true,
            Viewer::Public => false,
            Viewer::Seat(s) => s == seat,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{legal_membership, take_listed};
    use crate::core::{Reason, Seat};

    #[test]
    fn a_written_zone_takes_the_lowest_free_copy_of_the_list() {
        // Instances 0..4 hold cards 5, 7, 5, 9; instance 3 is already placed.
        let card = [5u8, 7, 5, 9];
        let mut free = 0b0111;
        assert_eq!(
            take_listed(&card, &mut free, 5, "hand", Seat::P1, "Five"),
            Ok(0)
        );
        assert_eq!(
            take_listed(&card, &mut free, 5, "hand", Seat::P1, "Five"),
            Ok(2)
        );
        assert_eq!(free, 0b0010);
        let e = take_listed(&card, &mut free, 5, "units", Seat::P1, "Five").unwrap_err();
        assert_eq!(
            e.to_string(),
            "units P1: one Five more than P1's deck list has for its zones (2 in the list)"
        );
        assert!(take_listed(&card, &mut free, 9, "hand", Seat::P1, "Nine").is_err());
        assert_eq!(
            take_listed(&card, &mut free, 7, "hand", Seat::P1, "Seven"),
            Ok(1)
        );
        assert_eq!(free, 0);
    }

    #[test]
    fn same_multiset_counts_copies_not_order() {
        use super::same_multiset;
        assert!(same_multiset(&[1, 2, 2], &[2, 1, 2]));
        assert!(!same_multiset(&[1, 2], &[1, 2, 2]));
        assert!(!same_multiset(&[1, 1, 2], &[1, 2, 2]));
    }

    #[test]
    fn membership_expectations_read_the_legal_texts() {
        let legal = [
            "pass".to_string(),
            "choose enemy Trainee Kit Sable#2".to_string(),
        ];
        assert_eq!(legal_membership("legal+", "pass", &legal), Some(Ok(())));
        // An empty expectation names nothing: it fails rather than passing unseen.
        assert!(matches!(
            legal_membership("legal-", " ", &legal),
            Some(Err(_))
        ));
        // Names compare as lookups do: case and runs of spaces aside.
        assert_eq!(
            legal_membership("legal+", "Choose  enemy trainee kit sable#2", &legal),
            Some(Ok(()))
        );
        assert_eq!(legal_membership("legal-", "end", &legal), Some(Ok(())));
        assert_eq!(
            legal_membership("legal-", "pass", &legal),
            Some(Err(Reason::new(
                "legal-: \"pass\" is legal; legal: pass | choose enemy Trainee Kit Sable#2"
            )))
        );
        assert_eq!(
            legal_membership("legal+", "end", &legal),
            Some(Err(Reason::new(
                "legal+: \"end\" is not legal; legal: pass | choose enemy Trainee Kit Sable#2"
            )))
        );
        assert_eq!(legal_membership("legal", "pass", &legal), None);
    }
}

/// A game that writes only [`GameDef`]'s required items (and [`Game`]'s, and [`Policy`]'s): a
/// race to take the last coin (a turn takes 1 or 2; the coins are the two decks' values summed).
/// It must play as `matrix` plays a game, and every missing capability must say so.
#[cfg(test)]
mod minimal {
    use super::{require, Capability, GameDef, GameInfo, Viewer};
    use crate::core::{ActionList, Game, GameRng, InputError, InputErrors, Outcome, Policy};
    use crate::core::{Reason, Seat};

    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct Coins {
        left: u32,
        turn: u32,
        mover: Seat,
        winner: Option<Seat>,
    }

    /// The match: the number of coins.
    pub struct Race(u32);

    impl Game for Race {
        type State = Coins;
        type Action = u8;
        type Undo = Coins;
        fn name(&self) -> &'static str {
            "race"
        }
        fn new_game(&self, _seed: u64, first: Seat) -> Coins {
            Coins {
                left: self.0,
                turn: 1,
                mover: first,
                winner: None,
            }
        }
        fn legal_actions(&self, s: &Coins, out: &mut ActionList<u8>) {
            out.clear();
            if s.winner.is_none() {
                for k in 1..=s.left.min(2) as u8 {
                    out.push(k);
                }
            }
        }
        fn apply(&self, s: &mut Coins, a: u8) -> Coins {
            let undo = *s;
            s.left -= u32::from(a);
            if s.left == 0 {
                s.winner = Some(s.mover);
            }
            s.mover = s.mover.other();
            s.turn += 1;
            undo
        }
        fn undo(&self, s: &mut Coins, undo: Coins) {
            *s = undo;
        }
        fn to_move(&self, s: &Coins) -> Option<Seat> {
            s.winner.is_none().then_some(s.mover)
        }
        fn outcome(&self, s: &Coins) -> Option<Outcome> {
            s.winner.map(Outcome::Win)
        }
        fn determinize(&self, s: &Coins, _observer: Seat, _rng: &mut GameRng) -> Coins {
            *s
        }
        fn turn(&self, s: &Coins) -> u32 {
            s.turn
        }
        fn action_text(&self, _s: &Coins, a: u8) -> String {
            format!("take {a}")
        }
    }

    impl Policy for Race {
        fn heuristic_action(&self, s: &Coins, legal: &ActionList<u8>, _rng: &mut GameRng) -> u8 {
            // Leave a multiple of 3 when one can.
            let want = (s.left % 3) as u8;
            if legal.contains(&want) {
                want
            } else {
                legal[0]
            }
        }
        fn evaluate(&self, _s: &Coins, _seat: Seat) -> f64 {
            0.5
        }
    }

    impl GameDef for Race {
        const INFO: GameInfo = GameInfo {
            name: "race",
            title: "Coin Race",
            rule_prefix: "R-",
            rules: "none",
            deck_dir: "none",
            deck_ext: "deck",
            card_file: "coins.txt",
            arena_decks: &[],
            formats: &["any coins"],
            filler: "none",
            lang: None,
            text_columns: &[],
        };
        type Cards = ();
        type Deck = (String, u32);
        fn bundled_cards() {}
        fn parse_cards(_text: &str, _file: &str) -> Result<(), InputError> {
            Ok(())
        }
        fn is_card_file(_text: &str) -> bool {
            false
        }
        fn parse_deck(
            _: &(),
            text: &str,
            file: &str,
            name: &str,
        ) -> Result<(String, u32), InputErrors> {
            let n = crate::core::input::parse_int(text.trim(), 1, 50)
                .map_err(|e| InputError::new(file, 1, e))?;
            Ok((name.to_string(), n))
        }
        fn deck_name(deck: &(String, u32)) -> &str {
            &deck.0
        }
        fn new_match(_: &(), decks: [&(String, u32); 2]) -> Race {
            Race(decks[0].1 + decks[1].1)
        }
        fn content_hash(_: &(), decks: &[&(String, u32)]) -> String {
            let parts: Vec<String> = decks.iter().map(|d| d.1.to_string()).collect();
            crate::core::content_hash(parts.iter().map(String::as_str))
        }
        fn match_cards(&self) -> &() {
            &()
        }
        fn parse_action(&self, s: &Coins, text: &str) -> Result<u8, Reason> {
            super::action_by_text(self, s, text)
        }
        fn render(&self, s: &Coins, seat: Seat) -> String {
            format!("{} coins left; you are {seat}", s.left)
        }
        fn info_key(&self, s: &Coins, _seat: Seat) -> String {
            format!("{s:?}")
        }
    }

    /// The required part plays: decks parse, matches are built both ways round and played to the
    /// end by the policy, with the default texts; the optional capabilities are refused with the
    /// documented messages (and the defaults are the documented ones).
    #[test]
    fn a_game_of_only_the_required_items_plays_and_names_what_it_lacks() {
        let a = Race::parse_deck(&(), "4", "a.deck", "a").unwrap();
        let b = Race::parse_deck(&(), "3", "b.deck", "b").unwrap();
        assert!(Race::parse_deck(&(), "x", "c.deck", "c").is_err());
        assert_eq!(Race::content_hash(&(), &[&a, &b]).len(), 16);
        let mut wins = [0; 2];
        for (seed, first) in [(1, Seat::P1), (2, Seat::P2)] {
            let g = Race::new_match(&(), [&a, &b]);
            let mut s = g.new_game(seed, first);
            let mut rng = crate::core::rng_from_seed(seed);
            assert_eq!(
                g.log_start(&s, first),
                vec![format!("{first} moves first.")]
            );
            while let Some(q) = g.to_move(&s) {
                let mut legal = ActionList::new();
                g.legal_actions(&s, &mut legal);
                let act = g.heuristic_action(&s, &legal, &mut rng);
                let text = g.action_text(&s, act);
                assert_eq!(g.parse_action(&s, &text), Ok(act));
                let before = s;
                g.apply(&mut s, act);
                assert_eq!(g.check_invariants(&s), Ok(()));
                assert_eq!(
                    g.narrate(&before, q, act, &s, Viewer::Seat(q)),
                    vec![format!("{q}: {text}")]
                );
                assert_eq!(
                    g.narrate(&before, q, act, &s, Viewer::Public),
                    vec![format!("{q} acts.")]
                );
            }
            // 7 coins: the first player leaves 6 and wins.
            assert_eq!(g.ending(&s), format!("{first} won"));
            wins[first.index()] += 1;
            assert!(g.deck_list(Seat::P1).is_empty());
        }
        assert_eq!(wins, [1, 1]);
        assert_eq!(Race::deck_summary(&a), "valid");
        let stats = require::<Race>(Capability::CardStats).unwrap_err();
        assert_eq!(stats.to_string(), "the Coin Race has no card statistics");
        assert_eq!(stats.exit_code(), 2);
        assert!(require::<Race>(Capability::Tuning)
            .unwrap_err()
            .to_string()
            .starts_with("the Coin Race has no tuning"));
        assert_eq!(
            Race::card_text(&(), "x").unwrap_err().to_string(),
            "the Coin Race has no card texts"
        );
        let dir = std::path::Path::new(".");
        assert_eq!(
            Race::run_scenario("", "x.scn", dir, None)
                .unwrap_err()
                .to_string(),
            "the Coin Race has no scenario format"
        );
        assert_eq!(
            Race::sealed(&(), 1, "", 1).unwrap_err().to_string(),
            "the Coin Race has no sealed format"
        );
        // No arena decks: the default bench match is an error (exit 2), not a panic.
        let bench = Race::bench_match().err().expect("no bench match");
        assert_eq!(
            bench.to_string(),
            "the Coin Race names no two decks to bench"
        );
        assert_eq!(bench.exit_code(), 2);
    }
}
