//! `process:CMD`: an agent that is another program, spoken to in JSON Lines over its standard
//! input and output (`docs/protocol.md`). The engine plays; the program only chooses, from an
//! observation that holds what its seat may see and nothing else. It speaks protocol
//! [`PROTOCOL`] (2): the program's `ready` must name it ([`check_ready`]), seeds are decimal
//! strings (JSON numbers above 2^53 do not survive JavaScript or jq), and a program may ask for
//! the cards' texts ([`card_text`]). A program silent past the timeout in the middle of a line is
//! told so, with the start of the line.
//!
//! tcgsim keeps its programs alive between games ([`POOL`]): a program is started once, told
//! `hello`, then serves game after game (`new_game` … `game_over`), so a model is loaded once, not
//! once a game; at most one program a thread and seat is busy at a time. [`shutdown`] closes the
//! idle programs' input at the end of a command and gives them a moment to exit. A program that exits, writes something that is not an answer, answers an action that is
//! not legal, or is silent past the move timeout fails its game: the game ends as a forfeit
//! ([`Failure`]), the program is stopped and a fresh one serves the next game. What a forfeit does
//! to the run — a loss, or the end of the run — is the spec's [`OnError`] ([`ProcessOptions`],
//! parsed with the spec: no process-wide setting). The failures of a run are counted by its
//! runner, in the [`Supervisor`] it gives the agents it builds (`sim::Entrant`), not in the spec.
//!
//! Two things are process-wide, and must be: the pool of idle programs ([`POOL`]), which outlives
//! a run so that the programs of `process:` agents are reused by every game and run of the
//! command, and the process groups of the running programs ([`GROUPS`]), which the signal handler
//! (a plain function, called with nothing but the signal) kills when tcgsim is interrupted.

use super::{Agent, Failure};
use crate::core::{ActionList, Error, GameDef, Outcome, Result, Seat, Viewer};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The protocol's version, sent in `hello` and required in the program's `ready`
/// (`docs/protocol.md`): 2 sends seeds as decimal strings, asks for the version in `ready`, and
/// offers card texts (`"card_texts": true`).
pub const PROTOCOL: u64 = 2;

/// The longest line a program may write (64 KiB, not counting the newline): an answer is a few
/// bytes.
pub const MAX_LINE: usize = 64 * 1024;
/// Programs that fail to start or to answer `hello` this many times in a row stop the run,
/// whatever `--on-agent-error` says: every further game would fail the same way.
pub const MAX_START_FAILURES: u64 = 3;
/// The default `--move-timeout`: 10 s per decision.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// Time a program has, beyond the move timeout, to start and answer `hello` (loading a model).
pub const STARTUP_GRACE: Duration = Duration::from_secs(60);
/// The longest `--move-timeout`: one hour.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(3600);

/// What a failed program does to the run (`--on-agent-error`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnError {
    /// The game is a loss for the failing seat; the run goes on.
    Loss,
    /// The run stops: the failed game is not counted, finished games are kept.
    Abort,
}

/// The options of `process:` agents, part of their parsed spec (the command line's
/// `--move-timeout` and `--on-agent-error`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcessOptions {
    /// The longest wait for one decision (`--move-timeout`).
    pub timeout: Duration,
    /// What a failure does to the run (`--on-agent-error`).
    pub on_error: OnError,
}

impl Default for ProcessOptions {
    /// [`DEFAULT_TIMEOUT`], and a failed game is a loss.
    fn default() -> Self {
        ProcessOptions {
            timeout: DEFAULT_TIMEOUT,
            on_error: OnError::Loss,
        }
    }
}

/// What all agents of one spec have seen go wrong in one run, shared between threads: the run's
/// runner makes one per agent spec (`sim::Entrant`) and reads the count at the end.
#[derive(Debug, Default)]
pub struct Supervisor {
    /// Games forfeited.
    forfeits: AtomicU64,
    /// Set once a program failed under [`OnError::Abort`]: later decisions fail at once.
    aborted: AtomicBool,
    /// The first failure's message.
    first: Mutex<Option<String>>,
    /// Programs that failed to start or to answer `hello`, in a row.
    start_failures: AtomicU64,
}

impl Supervisor {
    /// Whether an agent failed under [`OnError::Abort`] (or too many programs failed to start):
    /// the run must stop.
    pub fn aborted(&self) -> bool {
        self.aborted.load(Ordering::Relaxed)
    }

    /// The games forfeited so far and the first failure's message.
    pub fn failures(&self) -> (u64, Option<String>) {
        let first = self.first.lock().map(|f| f.clone()).ok().flatten();
        (self.forfeits.load(Ordering::Relaxed), first)
    }

    /// Counts a forfeit of an agent whose failure policy is `on_error`: the failure, and whether
    /// the run must stop.
    fn fail(&self, on_error: OnError, mut message: String) -> Failure {
        self.forfeits.fetch_add(1, Ordering::Relaxed);
        let starts = self.start_failures.load(Ordering::Relaxed);
        let give_up = starts >= MAX_START_FAILURES;
        if give_up {
            message.push_str(&format!(
                " ({starts} programs in a row failed to start: the run stops whatever --on-agent-error says)"
            ));
        }
        if let Ok(mut f) = self.first.lock() {
            if give_up && on_error == OnError::Loss {
                // The message that stops the run is the one to report.
                *f = Some(message.clone());
            } else {
                f.get_or_insert_with(|| message.clone());
            }
        }
        let abort = on_error == OnError::Abort || give_up;
        if abort {
            self.aborted.store(true, Ordering::Relaxed);
        }
        Failure { message, abort }
    }
}

/// A parsed `process:CMD` spec: a plain value (its run's failures are counted elsewhere,
/// [`Supervisor`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessSpec {
    /// The command as written.
    pub command: String,
    /// The program and its arguments.
    pub argv: Vec<String>,
    /// The longest wait for one decision.
    pub timeout: Duration,
    /// What a failure does to the run.
    pub on_error: OnError,
}

impl ProcessSpec {
    /// Parses the command of `process:CMD` (words split as a shell would, with quotes and
    /// backslashes, but no variables, globs or pipes), with the options `opts`.
    pub fn parse(command: &str, opts: &ProcessOptions) -> Result<ProcessSpec> {
        let argv = split_words(command)?;
        if argv.is_empty() {
            return Err(Error::usage(
                "process: no command (expected process:PROGRAM ARGS…)",
            ));
        }
        Ok(ProcessSpec {
            command: command.trim().to_string(),
            argv,
            timeout: opts.timeout,
            on_error: opts.on_error,
        })
    }
}

/// Splits a command line into words: runs of spaces separate words, '…' keeps everything
/// literally, "…" keeps everything but `\"` and `\\`, and a backslash outside quotes escapes the
/// next character.
pub fn split_words(s: &str) -> Result<Vec<String>> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => cur.push(x),
                        None => {
                            return Err(Error::usage(format!("process: unclosed ' in \"{s}\"")))
                        }
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(x @ ('"' | '\\')) => cur.push(x),
                            Some(x) => {
                                cur.push('\\');
                                cur.push(x);
                            }
                            None => {
                                return Err(Error::usage(format!(
                                    "process: unclosed \" in \"{s}\""
                                )))
                            }
                        },
                        Some(x) => cur.push(x),
                        None => {
                            return Err(Error::usage(format!("process: unclosed \" in \"{s}\"")))
                        }
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(x) => cur.push(x),
                    None => return Err(Error::usage(format!("process: a lone \\ ends \"{s}\""))),
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

/// What the reader thread of a program passes on.
enum Line {
    Text(String),
    Closed,
    TooLong,
    Error(String),
}

/// A running program: its input, written without blocking (so a program that does not read is
/// timed out, not waited on), and its output's lines through a reader thread (so a silent program
/// can be timed out).
struct Conn {
    child: Child,
    /// `None` once closed ([`shutdown`]).
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    /// What the reader thread has read of a line not ended yet (the start of it, at most
    /// [`MAX_LINE`] bytes): named in a timeout's message.
    partial: Arc<Mutex<Vec<u8>>>,
    /// The `(command, game)` it was started for: a pooled program serves only those.
    key: (Vec<String>, &'static str),
    /// Whether its `ready` asked for the cards' texts in `new_game`'s deck lists.
    card_texts: bool,
}

impl Drop for Conn {
    fn drop(&mut self) {
        // A program taken out of service (failed, or the run over): stop it — with every process
        // it started, its process group — and reap it. Nothing reaped it before (`exit_status`
        // only peeks), so its pid, the group's id, cannot have been reused.
        kill_group(&self.child);
        let _ = self.child.kill();
        let _ = self.child.wait();
        unregister(self.child.id());
    }
}

/// How the program ended, if it has, without reaping it (so its process group's id stays its own
/// until [`Conn`]'s drop kills the group).
#[cfg(unix)]
fn exit_status(child: &Child) -> Option<String> {
    // SAFETY: waitid(2) with WNOWAIT only reads the child's state into `info`, which it owns.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let r = libc::waitid(
            libc::P_PID,
            child.id() as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        if r != 0 || info.si_pid() == 0 {
            return None;
        }
        Some(match info.si_code {
            libc::CLD_EXITED => format!("exit status: {}", info.si_status()),
            _ => format!("signal: {}", info.si_status()),
        })
    }
}

#[cfg(not(unix))]
fn exit_status(_child: &Child) -> Option<String> {
    None
}

/// The process groups of the running programs, for the signal handler: a fixed table of atomics,
/// the one kind of memory a handler may read. 0 is a free slot. Process-wide by necessity: a
/// signal handler is a plain function, given nothing but the signal, so what it must kill has to
/// be reachable from a static.
#[cfg(unix)]
static GROUPS: [std::sync::atomic::AtomicI32; 1024] =
    [const { std::sync::atomic::AtomicI32::new(0) }; 1024];

#[cfg(unix)]
fn register(pid: u32) {
    static HANDLER: std::sync::Once = std::sync::Once::new();
    HANDLER.call_once(|| {
        // SAFETY: installs a handler that only reads atomics and calls kill, signal and raise,
        // all async-signal-safe.
        unsafe {
            for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                libc::signal(
                    sig,
                    on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t,
                );
            }
        }
    });
    let pid = pid as i32;
    for g in GROUPS.iter() {
        if g.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
    }
}

#[cfg(unix)]
fn unregister(pid: u32) {
    let pid = pid as i32;
    for g in GROUPS.iter() {
        if g.compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
    }
}

/// Ctrl-C (SIGINT), SIGTERM, SIGHUP: the programs run in process groups of their own, so the
/// terminal's signal does not reach them; stop them all, then die of the signal as before.
#[cfg(unix)]
extern "C" fn on_signal(sig: libc::c_int) {
    for g in GROUPS.iter() {
        let pid = g.load(Ordering::SeqCst);
        if pid > 0 {
            // SAFETY: kill is async-signal-safe; the group is one of our programs'.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
    // SAFETY: the default action again, then the signal: tcgsim ends as it did without a handler.
    unsafe {
        libc::signal(sig, libc::SIG_DFL);
        libc::raise(sig);
    }
}

#[cfg(not(unix))]
fn register(_pid: u32) {}

#[cfg(not(unix))]
fn unregister(_pid: u32) {}

/// Ends the idle programs at the end of a command: closes their input (the protocol's "no more
/// games"), gives them up to 2 s together to exit, then stops what is left.
pub fn shutdown() {
    let mut conns: Vec<Conn> = POOL
        .lock()
        .map(|mut p| std::mem::take(&mut *p))
        .unwrap_or_default();
    for c in &mut conns {
        c.stdin = None;
    }
    let deadline = Instant::now() + Duration::from_secs(2);
    while Instant::now() < deadline && conns.iter().any(|c| exit_status(&c.child).is_none()) {
        std::thread::sleep(Duration::from_millis(5));
    }
    drop(conns);
}

#[cfg(unix)]
fn kill_group(child: &Child) {
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill(2) takes plain integers; a negative pid names the process group the
        // program leads (spawn puts it in its own; the program is not reaped yet, so its pid, and
        // so the group's id, cannot have been reused), and only its processes are signalled.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

#[cfg(not(unix))]
fn kill_group(_child: &Child) {}

/// Makes tcgsim's end of the pipe to the program non-blocking (the program's end is not changed).
#[cfg(unix)]
fn set_nonblocking(stdin: &ChildStdin) -> std::io::Result<()> {
    use std::os::unix::io::AsRawFd;
    let fd = stdin.as_raw_fd();
    // SAFETY: fcntl(2) on a file descriptor this process owns, with integer arguments.
    let ok = unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        flags >= 0 && libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) >= 0
    };
    if ok {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(unix))]
fn set_nonblocking(_stdin: &ChildStdin) -> std::io::Result<()> {
    Ok(())
}

/// The programs started and not serving a game now, to serve the next games. Process-wide on
/// purpose: a program (a loaded model) serves every game and every run of the command, and
/// [`shutdown`] closes them all at its end, whichever run started them.
static POOL: Mutex<Vec<Conn>> = Mutex::new(Vec::new());

/// A program's failure to serve a decision (it cannot start, exits, is silent, breaks the
/// protocol): an [`Error::Agent`] whose message becomes the game's [`Failure`].
fn broke(msg: impl Into<String>) -> Error {
    Error::Agent(msg.into())
}

fn spawn(spec: &ProcessSpec, game: &'static str) -> Result<Conn> {
    let mut cmd = Command::new(&spec.argv[0]);
    cmd.args(&spec.argv[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    // Its own process group: stopping the program stops what it started (a wrapper script's
    // interpreter, `uv run`, `poetry run`).
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd
        .spawn()
        .map_err(|e| broke(format!("cannot start {}: {e}", spec.argv[0])))?;
    let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
        (Some(i), Some(o)) => (i, o),
        _ => return Err(broke("no pipes to the program")),
    };
    // A bounded channel: a program that floods its output waits, memory stays bounded.
    let (tx, rx) = sync_channel(4);
    let partial = Arc::new(Mutex::new(Vec::new()));
    let shared = Arc::clone(&partial);
    std::thread::Builder::new()
        .name("tcgsim-agent-reader".into())
        .spawn(move || read_lines(stdout, &shared, &tx))
        .map_err(|e| broke(format!("cannot start a reader thread: {e}")))?;
    register(child.id());
    set_nonblocking(&stdin)
        .map_err(|e| broke(format!("cannot set up the pipe to the program: {e}")))?;
    Ok(Conn {
        child,
        stdin: Some(stdin),
        lines: rx,
        partial,
        key: (spec.argv.clone(), game),
        card_texts: false,
    })
}

/// The reader thread of a program: passes on its lines (without the newline), keeping the bytes
/// of a line not ended yet in `partial`, where a timeout's message can quote them. A line over
/// [`MAX_LINE`] bytes, a read error or the end of the output is the last thing passed on.
fn read_lines(stdout: impl Read, partial: &Mutex<Vec<u8>>, tx: &SyncSender<Line>) {
    let text = |b: &[u8]| String::from_utf8_lossy(b).trim_end().to_string();
    let mut r = BufReader::new(stdout);
    let last = loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => break Line::Error(e.to_string()),
        };
        if chunk.is_empty() {
            // The end of the output: a last line without a newline is still a line.
            let rest = partial
                .lock()
                .map(|mut p| std::mem::take(&mut *p))
                .unwrap_or_default();
            if !rest.is_empty() && tx.send(Line::Text(text(&rest))).is_err() {
                return;
            }
            break Line::Closed;
        }
        let end = chunk.iter().position(|&b| b == b'\n');
        let piece = &chunk[..end.unwrap_or(chunk.len())];
        let line = {
            let Ok(mut p) = partial.lock() else { return };
            if p.len() + piece.len() > MAX_LINE {
                break Line::TooLong;
            }
            p.extend_from_slice(piece);
            end.map(|_| {
                let t = text(&p);
                p.clear();
                t
            })
        };
        let used = end.map_or(chunk.len(), |e| e + 1);
        r.consume(used);
        if let Some(t) = line {
            if tx.send(Line::Text(t)).is_err() {
                return;
            }
        }
    };
    let _ = tx.send(last);
}

impl Conn {
    /// Writes a message to the program. The pipe does not block: when it is full (the program
    /// has not read what came before) the write is retried every millisecond for `timeout`.
    fn send(&mut self, v: &Value, timeout: Duration) -> Result<()> {
        let mut line = v.to_string();
        line.push('\n');
        let mut rest = line.as_bytes();
        let deadline = Instant::now() + timeout;
        while !rest.is_empty() {
            let Some(stdin) = self.stdin.as_mut() else {
                return Err(broke("its input is closed"));
            };
            match stdin.write(rest) {
                Ok(0) => return Err(broke(self.closed())),
                Ok(n) => rest = &rest[n..],
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    if Instant::now() >= deadline {
                        return Err(broke(format!(
                            "the program does not read its input (its pipe stayed full for {} ms)",
                            timeout.as_millis()
                        )));
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(_) => return Err(broke(self.closed())),
            }
        }
        Ok(())
    }

    fn closed(&mut self) -> String {
        match exit_status(&self.child) {
            Some(st) => format!("the program exited ({st})"),
            None => "the program closed its input".to_string(),
        }
    }

    /// The next line the program writes, within `timeout`.
    fn receive(&mut self, timeout: Duration, waiting_for: &str) -> Result<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(Line::Text(t)) => Ok(t),
            Ok(Line::TooLong) => Err(broke(format!(
                "wrote a line of more than {MAX_LINE} bytes where {waiting_for} was expected"
            ))),
            Ok(Line::Error(e)) => Err(broke(format!("cannot read the program's output: {e}"))),
            Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => {
                // Give an exiting program a moment to be reaped, to report its status.
                let status = (0..50).find_map(|_| {
                    let st = exit_status(&self.child);
                    if st.is_none() {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                    st
                });
                Err(broke(format!(
                    "the program closed its output ({}) where {waiting_for} was expected",
                    status.unwrap_or_else(|| "still running".into())
                )))
            }
            Err(RecvTimeoutError::Timeout) => {
                let partial = self.partial.lock().map(|p| p.clone()).unwrap_or_default();
                let mut msg = format!(
                    "no answer within {} ms where {waiting_for} was expected",
                    timeout.as_millis()
                );
                if !partial.is_empty() {
                    msg.push_str(&format!(
                        "; it wrote part of a line ({} bytes, no newline yet), starting {}",
                        partial.len(),
                        quote(&String::from_utf8_lossy(&partial))
                    ));
                }
                Err(broke(msg))
            }
        }
    }
}

/// Checks a program's `ready` (`docs/protocol.md`): it must name the protocol it speaks, and that
/// must be [`PROTOCOL`]. A `ready` without `protocol` is a program of protocol 1, which read seeds
/// as numbers: it is refused, not guessed at (its seeds would change meaning without a word).
/// Returns whether it asks for the cards' texts (`"card_texts": true`).
pub fn check_ready(ready: &Value) -> Result<bool> {
    match ready.get("protocol") {
        Some(p) if p.as_u64() == Some(PROTOCOL) => {}
        None => {
            return Err(broke(format!(
                "answered hello with a ready that names no \"protocol\" (a program of protocol 1); \
                 tcgsim speaks protocol {PROTOCOL}: send \"protocol\": {PROTOCOL} in ready, and read \
                 seeds as decimal strings (docs/protocol.md)"
            )))
        }
        Some(p) => {
            return Err(broke(format!(
                "answered hello with protocol {p}; tcgsim speaks protocol {PROTOCOL} (docs/protocol.md)"
            )))
        }
    }
    match ready.get("card_texts") {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(v) => Err(broke(format!(
            "answered hello with \"card_texts\": {v}, where true or false was expected"
        ))),
    }
}

/// The full text of card `id` of `game`'s card database ([`GameDef::card_text`]: its printed
/// fields and abilities), or `None` where the game has none. Fire Force and TMNT name a card
/// `Name [number]` ([`GameDef::card_name`]), and the number alone names it: it is tried first.
pub fn card_text<G: GameDef>(game: &G, id: u32) -> Option<String> {
    let cards = game.match_cards();
    let name = G::card_name(cards, id);
    let number = name
        .strip_suffix(']')
        .and_then(|n| n.rsplit_once(" ["))
        .map(|(_, k)| k);
    number
        .and_then(|k| G::card_text(cards, k).ok())
        .or_else(|| G::card_text(cards, &name).ok())
}

/// The seed a program is told for a game: SHA-256 of the agent's seed (its first 8 bytes, big
/// endian). The agent's seed is derived from the deal's seed by invertible mixing
/// (`sim::schedule`), so telling it as it is would let a program recompute the deal — every hidden
/// card; a one-way hash tells nothing of it, and the same tcgsim seed still gives the same games.
pub fn program_seed(seed: u64) -> u64 {
    let mut m = b"tcgsim process seed ".to_vec();
    m.extend_from_slice(&seed.to_be_bytes());
    let h = sha256(&m);
    u64::from_be_bytes(h[..8].try_into().expect("8 bytes"))
}

/// SHA-256 (FIPS 180-4) of a short message.
fn sha256(msg: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut m = msg.to_vec();
    m.push(0x80);
    while m.len() % 64 != 56 {
        m.push(0);
    }
    m.extend_from_slice(&((msg.len() as u64) * 8).to_be_bytes());
    for block in m.chunks(64) {
        let mut w = [0u32; 64];
        for (i, c) in block.chunks(4).enumerate() {
            w[i] = u32::from_be_bytes([c[0], c[1], c[2], c[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let mut v = h;
        for i in 0..64 {
            let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
            let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
            let t1 = v[7]
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
            let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            let t2 = s0.wrapping_add(maj);
            v = [
                t1.wrapping_add(t2),
                v[0],
                v[1],
                v[2],
                v[3].wrapping_add(t1),
                v[4],
                v[5],
                v[6],
            ];
        }
        for (x, y) in h.iter_mut().zip(v) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 32];
    for (i, x) in h.iter().enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&x.to_be_bytes());
    }
    out
}

/// A short quote of what a program wrote, for messages.
fn quote(t: &str) -> String {
    let mut q: String = t.chars().take(80).collect();
    if q.len() < t.len() {
        q.push('…');
    }
    format!("\"{q}\"")
}

/// The `observation` message of `seat` in `state` (`docs/protocol.md`): the seat's view as text
/// ([`GameDef::render`]), the log lines it saw since its last decision, and the legal actions by
/// id — each with the card it plays or puts into a resource zone
/// ([`crate::core::Game::card_use`]), else the card it involves ([`GameDef::action_code`]).
/// Everything in it is a function of what the seat may see (tested against determinizations and
/// against a hand card put face down, `tests/suite/process.rs`). [`GameDef::info_key`] is not
/// sent: it names card slots, so it tells apart states a player cannot (which slot of a hand went
/// face down) — exact enough to key a search, too exact to show a player.
pub fn observation<G: GameDef>(
    game: &G,
    state: &G::State,
    seat: Seat,
    events: &[String],
    legal: &ActionList<G::Action>,
) -> Value {
    let legal: Vec<Value> = legal
        .iter()
        .enumerate()
        .map(|(id, &a)| {
            let (card, used) = match game.card_use(state, a) {
                Some((c, u)) => (
                    json!(c),
                    json!(match u {
                        crate::core::CardUse::Played => "played",
                        crate::core::CardUse::Resource => "resource",
                    }),
                ),
                // Another action involving a card (an attack with it, a target, a choice):
                // the card the game's learning code names ([`GameDef::action_code`], what the
                // player to move may see), with no `use`.
                None => match game.action_code(state, a).card {
                    Some(c) => (json!(c), Value::Null),
                    None => (Value::Null, Value::Null),
                },
            };
            json!({"id": id, "text": game.action_text(state, a), "card": card, "use": used})
        })
        .collect();
    json!({
        "type": "observation",
        "seat": seat.to_string(),
        "turn": game.turn(state),
        "events": events,
        "view": game.render(state, seat),
        "legal": legal,
    })
}

/// The agent of one seat of one game, served by a pooled program.
pub struct ProcessAgent<G: GameDef> {
    spec: ProcessSpec,
    /// Where the failures of the run's agents of this spec are counted.
    supervisor: Arc<Supervisor>,
    seed: u64,
    conn: Option<Conn>,
    /// Whether `new_game` was sent (the first decision or the game's end sends it).
    started: bool,
    /// Log lines seen since the last observation.
    events: Vec<String>,
    legal: ActionList<G::Action>,
}

impl<G: GameDef> ProcessAgent<G> {
    /// The agent of `spec`, seeded, its failures counted in `supervisor`.
    pub fn new(spec: ProcessSpec, seed: u64, supervisor: Arc<Supervisor>) -> Self {
        ProcessAgent {
            spec,
            supervisor,
            seed,
            conn: None,
            started: false,
            events: Vec::new(),
            legal: ActionList::new(),
        }
    }

    /// A program for this game: an idle one from the pool, or a new one told `hello`.
    fn connect(&mut self) -> Result<&mut Conn> {
        if self.conn.is_none() {
            let key = (self.spec.argv.clone(), G::INFO.name);
            let pooled = POOL.lock().ok().and_then(|mut p| {
                let i = p.iter().position(|c| c.key == key)?;
                Some(p.swap_remove(i))
            });
            let conn = match pooled {
                Some(c) => c,
                None => {
                    let sup = &self.supervisor;
                    // Counted only when a start fails (programs starting at once on several
                    // threads are not failures).
                    let failed = |e: Error| {
                        sup.start_failures.fetch_add(1, Ordering::Relaxed);
                        e
                    };
                    let mut c = spawn(&self.spec, G::INFO.name).map_err(failed)?;
                    c.send(
                        &json!({
                            "type": "hello",
                            "protocol": PROTOCOL,
                            "game": G::INFO.name,
                            "title": G::INFO.title,
                        }),
                        self.spec.timeout,
                    )
                    .map_err(failed)?;
                    let t = c
                        .receive(self.spec.timeout + STARTUP_GRACE, "the answer to hello")
                        .map_err(failed)?;
                    let ready = match serde_json::from_str::<Value>(&t) {
                        Ok(v) if v["type"] == "ready" => v,
                        _ => {
                            return Err(failed(broke(format!(
                                "answered hello with {} where {{\"type\": \"ready\", \"protocol\": {PROTOCOL}}} was expected",
                                quote(&t)
                            ))))
                        }
                    };
                    c.card_texts = check_ready(&ready).map_err(failed)?;
                    sup.start_failures.store(0, Ordering::Relaxed);
                    c
                }
            };
            self.conn = Some(conn);
        }
        Ok(self.conn.as_mut().expect("connected above"))
    }

    fn start(&mut self, game: &G, seat: Seat) -> Result<()> {
        if self.started {
            return Ok(());
        }
        let texts = self.connect()?.card_texts;
        let decks: Vec<Value> = Seat::ALL
            .iter()
            .map(|&q| {
                let cards: Vec<Value> = game
                    .deck_list(q)
                    .into_iter()
                    .map(|(id, name, copies)| {
                        let mut card = json!({"card": id, "name": name, "copies": copies});
                        if texts {
                            card["text"] = json!(card_text(game, id));
                        }
                        card
                    })
                    .collect();
                json!({"seat": q.to_string(), "cards": cards})
            })
            .collect();
        let msg = json!({
            "type": "new_game",
            "seat": seat.to_string(),
            // A decimal string: JSON numbers above 2^53 do not survive JavaScript, jq or bash.
            "seed": program_seed(self.seed).to_string(),
            "decks": decks,
        });
        self.started = true;
        let timeout = self.spec.timeout;
        self.connect()?.send(&msg, timeout)
    }

    fn decide(&mut self, game: &G, state: &G::State, seat: Seat) -> Result<G::Action> {
        self.start(game, seat)?;
        game.legal_actions(state, &mut self.legal);
        let obs = observation(game, state, seat, &self.events, &self.legal);
        self.events.clear();
        let n = self.legal.len();
        let timeout = self.spec.timeout;
        let conn = self.connect()?;
        conn.send(&obs, timeout)?;
        let t = conn.receive(timeout, "an action")?;
        let v: Value = serde_json::from_str(&t).map_err(|_| {
            broke(format!(
                "answered {} where {{\"action\": ID}} was expected",
                quote(&t)
            ))
        })?;
        let id = v.get("action").and_then(Value::as_u64).ok_or_else(|| {
            broke(format!(
                "answered {} where {{\"action\": ID}} was expected",
                quote(&t)
            ))
        })?;
        if id >= n as u64 {
            return Err(broke(format!(
                "answered action {id}, which is not legal (legal ids 0..{})",
                n - 1
            )));
        }
        Ok(self.legal[id as usize])
    }
}

impl<G: GameDef> Drop for ProcessAgent<G> {
    fn drop(&mut self) {
        // A healthy program serves a next game.
        if let Some(c) = self.conn.take() {
            if let Ok(mut p) = POOL.lock() {
                p.push(c);
            }
        }
    }
}

impl<G: GameDef> Agent<G> for ProcessAgent<G> {
    fn name(&self) -> String {
        format!("process:{}", self.spec.command)
    }

    /// [`Agent::try_choose`], or the first legal action after a failure (callers that cannot end
    /// a game as a forfeit).
    fn choose(&mut self, game: &G, state: &G::State, seat: Seat) -> G::Action {
        match self.try_choose(game, state, seat) {
            Ok(a) => a,
            Err(_) => {
                game.legal_actions(state, &mut self.legal);
                self.legal[0]
            }
        }
    }

    fn try_choose(&mut self, game: &G, state: &G::State, seat: Seat) -> Result<G::Action, Failure> {
        if self.supervisor.aborted() {
            return Err(Failure {
                message: "the run is stopping".into(),
                abort: true,
            });
        }
        self.decide(game, state, seat).map_err(|e| {
            // The program is out of service: dropping it stops it.
            self.conn = None;
            let message = format!(
                "agent \"process:{}\" as {seat} on turn {}: {e}",
                self.spec.command,
                game.turn(state)
            );
            self.supervisor.fail(self.spec.on_error, message)
        })
    }

    fn supervised(&self) -> bool {
        true
    }

    fn observe(
        &mut self,
        game: &G,
        me: Seat,
        before: &G::State,
        actor: Seat,
        action: G::Action,
        after: &G::State,
    ) {
        self.events
            .extend(game.narrate(before, actor, action, after, Viewer::Seat(me)));
        if game.to_move(after).is_none() && self.conn.is_some() {
            let outcome = game.outcome(after);
            let result = match outcome {
                Some(Outcome::Win(w)) if w == me => "win",
                Some(Outcome::Win(_)) => "loss",
                _ => "draw",
            };
            let winner = match outcome {
                Some(Outcome::Win(w)) => json!(w.to_string()),
                _ => Value::Null,
            };
            let msg = json!({
                "type": "game_over",
                "result": result,
                "winner": winner,
                "ending": game.ending(after),
                "turn": game.turn(after),
                "events": std::mem::take(&mut self.events),
            });
            let timeout = self.spec.timeout;
            if let Some(c) = self.conn.as_mut() {
                if c.send(&msg, timeout).is_err() {
                    // It could not take the news: it will not serve another game.
                    self.conn = None;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FIPS 180-4's examples (NIST's "abc" and the two-block message) and the empty message.
    #[test]
    fn sha256_matches_the_standard_s_examples() {
        let hex = |b: [u8; 32]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
        assert_eq!(
            hex(sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            hex(sha256(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            hex(sha256(
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
            )),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
    }

    #[test]
    fn splits_words_like_a_shell() {
        let w = |s| split_words(s).unwrap();
        assert_eq!(
            w("python3  bot.py --x 1"),
            ["python3", "bot.py", "--x", "1"]
        );
        assert_eq!(w("sh -c 'echo \"a b\"'"), ["sh", "-c", "echo \"a b\""]);
        assert_eq!(w(r#"a "b \"c\" \d" e\ f"#), ["a", r#"b "c" \d"#, "e f"]);
        assert_eq!(w("''"), [""]);
        assert!(w("  ").is_empty());
        assert!(split_words("a 'b")
            .unwrap_err()
            .to_string()
            .contains("unclosed '"));
        assert!(split_words("a \"b")
            .unwrap_err()
            .to_string()
            .contains("unclosed \""));
        assert!(split_words("a \\")
            .unwrap_err()
            .to_string()
            .contains("lone"));
    }
}
