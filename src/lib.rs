//! nexar engine (being built).
