//! The error of a failed write (standard output or a result file), shared by every layer that
//! writes: the command line turns it into exit code 1.

/// A failure to write a command's output: standard output or a result file. Exit code 1.
#[derive(Debug, thiserror::Error)]
#[error("{what}")]
pub struct WriteError {
    pub what: String,
    #[source]
    pub source: std::io::Error,
}

impl WriteError {
    pub fn new(what: impl Into<String>, source: std::io::Error) -> Self {
        WriteError {
            what: what.into(),
            source,
        }
    }

    /// Whether the reader went away (a closed pipe): nothing to report then.
    pub fn is_broken_pipe(&self) -> bool {
        self.source.kind() == std::io::ErrorKind::BrokenPipe
    }
}
