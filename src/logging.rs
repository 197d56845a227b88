//! Rank logs: with `NEXAR_LOG` set (a `tracing` filter, e.g. `info`, `nexar=debug`), every
//! process that links nexar (a Rust program, a C or MPI program, mpi4py) logs nexar's events
//! to stderr, each line prefixed with its rank, in colour only when stderr is a terminal.
//! Without `NEXAR_LOG` nothing is installed, and a program that set up its own `tracing`
//! subscriber keeps it.

use std::fmt;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU32, Ordering};
use tracing::{Event, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;

/// This process's world rank once known (`u32::MAX` before).
static RANK: AtomicU32 = AtomicU32::new(u32::MAX);

/// Installs the rank logger if `NEXAR_LOG` is set and no global subscriber exists yet (once;
/// later calls do nothing).
pub(crate) fn install() {
    let Ok(filter) = tracing_subscriber::EnvFilter::try_from_env("NEXAR_LOG") else {
        return;
    };
    let format = RankPrefix(tracing_subscriber::fmt::format::Format::default());
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_env_filter(filter)
        .event_format(format)
        .try_init();
}

/// Records this process's rank for the log prefix.
pub(crate) fn set_rank(rank: u32) {
    RANK.store(rank, Ordering::Relaxed);
}

/// Prefixes each event with `[nexar rank R]` (`[nexar]` before the rank is known).
struct RankPrefix<F>(F);

impl<S, N, F> FormatEvent<S, N> for RankPrefix<F>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
    F: FormatEvent<S, N>,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        match RANK.load(Ordering::Relaxed) {
            u32::MAX => write!(writer, "[nexar] ")?,
            r => write!(writer, "[nexar rank {r}] ")?,
        }
        self.0.format_event(ctx, writer, event)
    }
}
