//! The library's error: what went wrong, by kind. Every fallible public function of the library
//! returns [`Error`] (or one of the kinds' own types, which convert into it with `?`); the command
//! line turns the kind into its exit code ([`Error::exit_code`], `docs/cli.md`, "Exit codes").

use super::input::InputError;
use super::write::WriteError;

/// A failure of a library call, by kind.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file the user gave is unreadable or wrong (card file, deck, scenario, checkpoint, shard,
    /// result file): the message names the file, the line and the reason. Exit code 2.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A request that cannot be run as asked — a flag's value, an agent spec, a plan whose parts
    /// do not fit together (decks of another game, a run folder of another run). Exit code 2.
    #[error("{0}")]
    Usage(String),
    /// An agent failed and the run was told to stop (`--on-agent-error abort`, or a `play`
    /// whose agent failed): a program that crashed, timed out or broke the protocol. Exit code 2.
    #[error("{0}")]
    Agent(String),
    /// An output could not be written (standard output, a result file, a checkpoint). Exit code 1.
    #[error(transparent)]
    Write(#[from] WriteError),
}

impl Error {
    /// The exit code of a command that failed with this error: 1 for an output that could not be
    /// written, 2 for bad input (`docs/cli.md`, "Exit codes").
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Write(_) => 1,
            Error::Input(_) | Error::Usage(_) | Error::Agent(_) => 2,
        }
    }

    /// A [`Error::Usage`] error with `msg`.
    pub fn usage(msg: impl Into<String>) -> Error {
        Error::Usage(msg.into())
    }

    /// An [`Error::Input`] error naming `file`, `line` (0: the file as a whole) and `msg`.
    pub fn input(file: impl Into<String>, line: usize, msg: impl Into<String>) -> Error {
        Error::Input(InputError {
            file: file.into(),
            line,
            msg: msg.into(),
        })
    }

    /// Whether this is a write to a reader that went away (a closed pipe): nothing to report.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Write(w) if w.is_broken_pipe())
    }
}

/// A file's problems all at once (a deck's): one [`Error::Input`] that displays them alike.
impl From<super::input::InputErrors> for Error {
    fn from(e: super::input::InputErrors) -> Error {
        Error::Input(e.joined())
    }
}

/// A value given on the command line or asked for (a card's name, a pack's notation) that is
/// wrong: a [`Error::Usage`] error with its reason.
impl From<super::input::Reason> for Error {
    fn from(e: super::input::Reason) -> Error {
        Error::Usage(e.0)
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/cli.md, "Exit codes": 1 for a failed write, 2 for bad input of every kind.
    #[test]
    fn each_kind_has_its_documented_exit_code() {
        let write = WriteError::new("out.csv: cannot write", std::io::Error::other("disk full"));
        assert_eq!(Error::from(write).exit_code(), 1);
        assert_eq!(Error::input("deck.txt", 3, "no such card").exit_code(), 2);
        assert_eq!(Error::usage("--games must be at least 1").exit_code(), 2);
        assert_eq!(Error::Agent("agent exited".into()).exit_code(), 2);
        assert_eq!(
            Error::input("deck.txt", 3, "no such card").to_string(),
            "deck.txt:3: no such card"
        );
        let pipe = WriteError::new("stdout", std::io::ErrorKind::BrokenPipe.into());
        assert!(Error::from(pipe).is_broken_pipe());
    }
}
