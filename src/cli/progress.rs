//! Progress of long runs on standard error: a bar with elapsed time, percent and ETA on a
//! terminal; plain lines every few seconds when standard error is a file or a pipe
//! (`scripts/overnight.sh … 2>log`), so a log shows how far a run got; nothing with `--quiet`.

use super::out::{note, quiet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Seconds between plain progress lines (`TCGSIM_PROGRESS_SECONDS`, default 10). A value that is
/// not a number of seconds from 0 to 86,400 is said once, on standard error, and the default used.
fn interval() -> Duration {
    static EVERY: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();
    *EVERY.get_or_init(read_interval)
}

fn read_interval() -> Duration {
    const DEFAULT: f64 = 10.0;
    let secs = match std::env::var("TCGSIM_PROGRESS_SECONDS") {
        Err(_) => DEFAULT,
        Ok(v) => match v.trim().parse::<f64>() {
            Ok(x) if x.is_finite() && (0.0..=86_400.0).contains(&x) => x,
            _ => {
                note(&format!(
                    "warning: TCGSIM_PROGRESS_SECONDS={v:?} is not a number of seconds from 0 to 86400; progress lines every {DEFAULT} s"
                ));
                DEFAULT
            }
        },
    };
    Duration::from_secs_f64(secs)
}

enum Mode {
    Hidden,
    Bar(indicatif::ProgressBar),
    Lines {
        every: Duration,
        start: Instant,
        last: Mutex<(Instant, String)>,
    },
}

/// Progress over `len` units (games, usually).
pub struct Progress {
    mode: Mode,
    len: u64,
    done: AtomicU64,
    /// Units done before this process started (a resumed run): counted, but not in the rate.
    resumed: u64,
    unit: &'static str,
    /// What the ETA counts to: [`ETA_TO_LEN`], [`ETA_UNKNOWN`] or a total of units
    /// ([`Progress::expect`]).
    eta_to: AtomicU64,
}

/// The ETA counts to the length.
const ETA_TO_LEN: u64 = 0;
/// The ETA is not known yet (shown as `?`).
const ETA_UNKNOWN: u64 = u64::MAX;

impl Progress {
    pub fn new(len: u64, unit: &'static str) -> Progress {
        use std::io::IsTerminal;
        let mode = if quiet() || len == 0 {
            Mode::Hidden
        } else if std::io::stderr().is_terminal() {
            let pb = indicatif::ProgressBar::new(len);
            let template = format!(
                "{{elapsed_precise}} {{bar:40}} {{pos}}/{{len}} {unit} ({{percent}}%) · {{per_sec}} · ETA {{eta}} {{msg}}"
            );
            pb.set_style(
                indicatif::ProgressStyle::with_template(&template).expect("valid template"),
            );
            Mode::Bar(pb)
        } else {
            let now = Instant::now();
            Mode::Lines {
                every: interval(),
                start: now,
                last: Mutex::new((now, String::new())),
            }
        };
        Progress {
            mode,
            len,
            done: AtomicU64::new(0),
            resumed: 0,
            unit,
            eta_to: AtomicU64::new(ETA_TO_LEN),
        }
    }

    /// A run whose length is a forecast (the SPRT: its length is at most the given one, and
    /// expected to be `total`, [`crate::sim::arena::SprtState::expected_pairs_left`]): the ETA
    /// counts to `total` units, or is `?` while there is no forecast. On a terminal the bar's
    /// length becomes `total`.
    pub fn expect(&self, total: Option<u64>) {
        let to = total.map_or(ETA_UNKNOWN, |t| t.clamp(1, self.len.max(1)));
        self.eta_to.store(to, Ordering::Relaxed);
        if let (Mode::Bar(pb), Some(_)) = (&self.mode, total) {
            pb.set_length(to);
        }
    }

    /// A resumed run: `done` of the `len` units were finished by an earlier process. They count
    /// in the position and the percentage (issue 30: a resumed run counted only its own games),
    /// not in the rate or the ETA, which are this process's.
    pub fn resumed(mut self, done: u64) -> Progress {
        self.done = AtomicU64::new(done);
        self.resumed = done;
        if let Mode::Bar(pb) = &self.mode {
            pb.set_position(done);
            pb.reset_eta();
        }
        self
    }

    /// `n` more units done.
    pub fn inc(&self, n: u64) {
        let done = self.done.fetch_add(n, Ordering::Relaxed) + n;
        match &self.mode {
            Mode::Hidden => {}
            Mode::Bar(pb) => pb.inc(n),
            Mode::Lines { every, start, last } => {
                let Ok(mut l) = last.try_lock() else { return };
                let now = Instant::now();
                if now.duration_since(l.0) >= *every {
                    l.0 = now;
                    note(&self.line(done, now.duration_since(*start), &l.1));
                }
            }
        }
    }

    /// A message after the counts (the SPRT's LLR).
    pub fn message(&self, msg: String) {
        match &self.mode {
            Mode::Hidden => {}
            Mode::Bar(pb) => pb.set_message(msg),
            Mode::Lines { last, .. } => {
                if let Ok(mut l) = last.lock() {
                    l.1 = msg;
                }
            }
        }
    }

    /// The plain line: `progress: 1200/4000 games (30.0%), 410 games/s, elapsed 3 s, ETA 7 s`
    /// (the rate and the ETA from this process's units: [`Progress::resumed`]).
    fn line(&self, done: u64, elapsed: Duration, msg: &str) -> String {
        let secs = elapsed.as_secs_f64().max(1e-9);
        let rate = done.saturating_sub(self.resumed) as f64 / secs;
        let to = match self.eta_to.load(Ordering::Relaxed) {
            ETA_TO_LEN => Some(self.len),
            ETA_UNKNOWN => None,
            t => Some(t),
        };
        let eta = match to {
            Some(to) if rate > 0.0 && to >= done => format!("{:.0} s", (to - done) as f64 / rate),
            _ => "?".into(),
        };
        let mut t = format!(
            "progress: {done}/{} {} ({:.1}%), {}, elapsed {:.0} s, ETA {eta}",
            self.len,
            self.unit,
            100.0 * done as f64 / self.len.max(1) as f64,
            rate_text(rate, self.unit),
            secs,
        );
        if !msg.is_empty() {
            t.push_str(" · ");
            t.push_str(msg);
        }
        t
    }

    /// Clears the bar.
    pub fn finish(&self) {
        if let Mode::Bar(pb) = &self.mode {
            pb.finish_and_clear();
        }
    }
}

/// A rate as read best: `410 games/s`, `2.50 games/s`, or below one unit a second the time each
/// takes, `2.50 s/game`, `155 s/game` (issue 30: below 1 game/s the line said "0 games/s").
fn rate_text(rate: f64, unit: &str) -> String {
    if rate > 0.0 && rate < 1.0 {
        let one = unit.strip_suffix('s').unwrap_or(unit);
        return format!("{} s/{one}", per_second(1.0 / rate));
    }
    format!("{} {unit}/s", per_second(rate))
}

/// A number with three significant figures at most (`per_second(0.25)` is "0.25", never "0").
fn per_second(rate: f64) -> String {
    if rate >= 100.0 || rate == 0.0 {
        format!("{rate:.0}")
    } else if rate >= 10.0 {
        format!("{rate:.1}")
    } else {
        format!("{rate:.2}")
    }
}

/// The SPRT's message after the counts: its LLR, its bounds and the games it is expected to
/// play in all (`None`: no estimate yet).
pub fn sprt_message(llr: f64, lower: f64, upper: f64, expected_games: Option<u64>) -> String {
    let mut m = format!("LLR {llr:.2} in ({lower:.2}, {upper:.2})");
    if let Some(g) = expected_games {
        m.push_str(&format!(", about {g} games expected"));
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SPRT's line: 64 of at most 2000 games in 20 s (3.2 games/s), expected 180 in all:
    /// ETA (180 − 64)/3.2 = 36 s, not the (2000 − 64)/3.2 = 605 s to the cap; `?` before the
    /// first estimate.
    #[test]
    fn the_sprt_eta_counts_to_the_expected_length() {
        let p = Progress {
            mode: Mode::Hidden,
            len: 2000,
            done: AtomicU64::new(0),
            unit: "games",
            resumed: 0,
            eta_to: AtomicU64::new(ETA_TO_LEN),
        };
        let msg = sprt_message(1.234, -2.944, 2.944, Some(180));
        assert_eq!(msg, "LLR 1.23 in (-2.94, 2.94), about 180 games expected");
        let t = Duration::from_secs(20);
        assert!(
            p.line(64, t, "").contains("ETA 605 s"),
            "{}",
            p.line(64, t, "")
        );
        p.expect(None);
        assert!(p.line(64, t, "").contains("ETA ?"));
        p.expect(Some(180));
        assert_eq!(
            p.line(64, t, &msg),
            "progress: 64/2000 games (3.2%), 3.20 games/s, elapsed 20 s, ETA 36 s · \
             LLR 1.23 in (-2.94, 2.94), about 180 games expected"
        );
    }

    #[test]
    fn slow_rates_keep_their_figures() {
        assert_eq!(per_second(410.4), "410");
        assert_eq!(per_second(12.34), "12.3");
        assert_eq!(per_second(0.25), "0.25");
        assert_eq!(per_second(1.0 / 155.0), "0.01");
        assert_eq!(per_second(0.0), "0");
        assert_eq!(rate_text(410.4, "games"), "410 games/s");
        assert_eq!(rate_text(2.5, "games"), "2.50 games/s");
        assert_eq!(rate_text(0.4, "games"), "2.50 s/game");
        assert_eq!(rate_text(1.0 / 155.0, "games"), "155 s/game");
        assert_eq!(rate_text(0.0, "games"), "0 games/s");
    }
}
