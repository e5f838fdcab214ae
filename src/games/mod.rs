//! One module per game. Each implements [`crate::core::Game`].

pub mod trails;
