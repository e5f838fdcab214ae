//! Fingerprints: the one canonical line that names a run — what it plays (game, decks, the
//! content hash of cards and rules, agents), how much and from which seed — written with its
//! outputs (`run.json`, a shard's `matchups.csv`) and at the head of its checkpoint (`run.txt`,
//! the tune state), and compared by `merge` and `--resume`: files of another run are refused.
//! Every plan's fingerprint is built (and the matrix's parsed back) here, and so is the run's
//! tag that binds each checkpoint line to its run ([`run_tag`], `sim::checkpoint`).
//!
//! A fingerprint is a head naming the format and its version (`tcgsim-matrix v4`), then
//! `key=value` parts, all joined by `; `. The strings are part of the files' format: a change
//! makes every recorded checkpoint and shard another run's, so a new format is a new version.

use crate::core::fnv1a;
use crate::core::input::Reason;
use crate::sim::duel::DuelPlan;
use crate::sim::matrix::Plan;

/// The head of a matrix's fingerprint. v4 added the game-length histogram (`lengths.csv`, and a
/// `lengths` field in each checkpoint line); a shard or checkpoint of another version is refused.
pub const MATRIX_HEAD: &str = "tcgsim-matrix v4";

/// The head of a duel's fingerprint.
pub const DUEL_HEAD: &str = "tcgsim-duel v3";

/// The head of a search's fingerprint (`tcgsim tune`).
pub const TUNE_HEAD: &str = "tcgsim-tune v1";

/// `head; key=value; …`.
pub fn build(head: &str, parts: &[(&str, String)]) -> String {
    let mut s = head.to_string();
    for (k, v) in parts {
        s.push_str("; ");
        s.push_str(k);
        s.push('=');
        s.push_str(v);
    }
    s
}

/// A matrix's fingerprint ([`Plan::fingerprint`]).
pub fn matrix(p: &Plan) -> String {
    build(
        MATRIX_HEAD,
        &[
            ("game", p.game.clone()),
            ("decks", p.deck_names.join(",")),
            ("content", p.content.clone()),
            ("agent_a", p.agent_a.clone()),
            ("agent_b", p.agent_b.clone()),
            ("games", p.games.to_string()),
            ("seed", p.seed.to_string()),
            ("chunk", p.chunk.to_string()),
        ],
    )
}

/// The fingerprint a checkpoint of shard `(i, n)` of a run is bound to (`fingerprint; shard=i/n`):
/// a shard's checkpoint is its own, never resumed by another shard.
pub fn with_shard(fingerprint: String, shard: Option<(u64, u64)>) -> String {
    match shard {
        Some((i, n)) => format!("{fingerprint}; shard={i}/{n}"),
        None => fingerprint,
    }
}

/// Reads a matrix's fingerprint back (the plan line of a shard's `matchups.csv`): its head must be
/// this version's ([`MATRIX_HEAD`]; an older or newer one is refused saying so), every key a
/// plan's, and the plan must give the same line again.
pub fn parse_matrix(line: &str) -> Result<Plan, Reason> {
    let bad = || Reason::new("malformed plan line");
    let mut parts = line.split("; ");
    match parts.next() {
        Some(MATRIX_HEAD) => {}
        Some("tcgsim-matrix v3") => {
            return Err(format!(
                "written by an older version of tcgsim (`tcgsim-matrix v3`, this one writes \
                 `{MATRIX_HEAD}`): its files have no game-length histogram (lengths.csv); run it again"
            )
            .into())
        }
        Some(h) if h.starts_with("tcgsim-matrix v") => {
            return Err(format!(
                "written by another version of tcgsim (`{h}`, this one writes `{MATRIX_HEAD}`): \
                 its games were played differently; run it again"
            )
            .into())
        }
        _ => return Err(bad()),
    }
    let mut plan = Plan::default();
    for part in parts {
        let (k, v) = part.split_once('=').ok_or_else(bad)?;
        let num = || v.parse::<u64>().map_err(|_| bad());
        match k {
            "game" => plan.game = v.to_string(),
            "decks" => plan.deck_names = v.split(',').map(str::to_string).collect(),
            "content" => plan.content = v.to_string(),
            "agent_a" => plan.agent_a = v.to_string(),
            "agent_b" => plan.agent_b = v.to_string(),
            "games" => plan.games = num()?,
            "seed" => plan.seed = num()?,
            "chunk" => plan.chunk = num()?,
            _ => return Err(format!("unknown plan key \"{k}\"").into()),
        }
    }
    if matrix(&plan) != line || plan.chunk == 0 || plan.games == 0 {
        return Err(bad());
    }
    plan.check_size()?;
    Ok(plan)
}

/// A duel's fingerprint ([`DuelPlan::fingerprint`]): a checkpoint of another duel (another game,
/// deck, card, rule version, agent, number of games or seed) is refused.
pub fn duel(p: &DuelPlan) -> String {
    let [n1, n2] = &p.decks;
    let [a, b] = &p.agents;
    build(
        DUEL_HEAD,
        &[
            ("game", p.game.clone()),
            ("decks", format!("{n1},{n2}")),
            ("content", p.content.clone()),
            ("agent_a", a.clone()),
            ("agent_b", b.clone()),
            ("games", p.games.to_string()),
            ("seed", p.seed.to_string()),
        ],
    )
}

/// A search's fingerprint (`sim::tune::run::Plan::fingerprint`): `parts` (game, deck, gauntlet,
/// content, files, pool, agent, seed), then the search's parameters as `params` writes them
/// (`n0=…; n_max=…; …`).
pub fn tune(parts: &[(&str, String)], params: &str) -> String {
    format!("{}; {params}", build(TUNE_HEAD, parts))
}

/// A run's tag: a 64-bit FNV-1a hash of its fingerprint, in hex. A checkpoint's first line
/// carries it and every line's check sum includes it, so a line of another run is refused.
pub fn run_tag(fingerprint: &str) -> String {
    format!("{:016x}", fnv1a(fingerprint.bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The strings are the files' format: these are the lines recorded runs carry.
    #[test]
    fn fingerprints_keep_their_recorded_form() {
        let p = Plan {
            game: "toy".into(),
            deck_names: vec!["high".into(), "low".into()],
            content: "7013e28befa8223e".into(),
            agent_a: "heuristic".into(),
            agent_b: "random".into(),
            games: 200,
            seed: 7,
            chunk: 50,
        };
        let line = "tcgsim-matrix v4; game=toy; decks=high,low; content=7013e28befa8223e; agent_a=heuristic; agent_b=random; games=200; seed=7; chunk=50";
        assert_eq!(matrix(&p), line);
        assert_eq!(parse_matrix(line).unwrap().fingerprint(), line);
        assert_eq!(
            with_shard(matrix(&p), Some((2, 3))),
            format!("{line}; shard=2/3")
        );
        assert!(parse_matrix(&line.replace("v4", "v3"))
            .unwrap_err()
            .contains("older version"));
        assert_eq!(
            parse_matrix(&line.replace("seed=7", "seed=x"))
                .unwrap_err()
                .0,
            "malformed plan line"
        );
        assert_eq!(run_tag("run"), format!("{:016x}", fnv1a("run".bytes())));
        assert_eq!(
            tune(&[("game", "toy".into())], "n0=1; n_max=2"),
            "tcgsim-tune v1; game=toy; n0=1; n_max=2"
        );
    }
}
