//! Completing any one of an array of requests (`nexar_waitany`, `MPI_Waitany` /
//! `MPI_Testany`). Both crates scan the array in order, skip entries that hold no live request,
//! complete the first that is done, and between fruitless passes let the caller drive progress
//! and pace itself (`nexar::PollBackoff`); what a handle, a live entry and a completion are
//! stays with each crate, as closures. The all / some forms are not here: only the MPI shim
//! has the some forms, and the two crates' all forms differ in what they check first and how
//! they report (the first error vs `MPI_ERR_IN_STATUS`).

/// What one pass over a request array found.
#[derive(Debug, PartialEq, Eq)]
pub enum Pass<T> {
    /// The first completed request: its position and what completing it gave.
    Done(usize, T),
    /// Live requests, none completed yet.
    Pending,
    /// No live request at all (every entry NULL, or inactive).
    Empty,
}

/// One pass over entries `0 .. n` in order: `live(i)` gives entry `i`'s request (`None` to skip
/// it), and `complete(i, request)` completes that request if it is done (`Ok(None)` if not).
/// Stops at the first completion or error.
pub fn pass<H, T, E>(
    n: usize,
    mut live: impl FnMut(usize) -> Option<H>,
    mut complete: impl FnMut(usize, H) -> Result<Option<T>, E>,
) -> Result<Pass<T>, E> {
    let mut any_live = false;
    for i in 0..n {
        let Some(h) = live(i) else { continue };
        any_live = true;
        if let Some(t) = complete(i, h)? {
            return Ok(Pass::Done(i, t));
        }
    }
    Ok(if any_live { Pass::Pending } else { Pass::Empty })
}

/// Repeats `one_pass` until it completes a request (`Some((position, result))`) or finds none
/// live (`None`), calling `pause` between passes (where the caller drives progress and
/// paces: the blocking `wait_any`).
pub fn wait<T, E>(
    mut one_pass: impl FnMut() -> Result<Pass<T>, E>,
    mut pause: impl FnMut(),
) -> Result<Option<(usize, T)>, E> {
    loop {
        match one_pass()? {
            Pass::Done(i, t) => return Ok(Some((i, t))),
            Pass::Empty => return Ok(None),
            Pass::Pending => pause(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pass_skips_dead_entries_and_stops_at_the_first_completion() {
        let handles = [0, 5, 6, 7];
        let mut tried = Vec::new();
        let p = pass(
            handles.len(),
            |i| (handles[i] != 0).then_some(handles[i]),
            |i, h| {
                tried.push(i);
                Ok::<_, ()>((h >= 6).then_some(h * 10))
            },
        );
        assert_eq!(p, Ok(Pass::Done(2, 60)));
        assert_eq!(tried, [1, 2], "entry 0 skipped, entry 3 not reached");
        let none_done = pass(3, Some, |_, _| Ok::<Option<()>, ()>(None));
        assert_eq!(none_done, Ok(Pass::Pending));
        let none_live = pass(3, |_| None::<u8>, |_, _| Ok::<Option<()>, ()>(None));
        assert_eq!(none_live, Ok(Pass::Empty));
        assert_eq!(
            pass(0, Some, |_, _| Ok::<Option<()>, ()>(None)),
            Ok(Pass::Empty)
        );
        let failed = pass(3, Some, |i, _| if i == 1 { Err(i) } else { Ok(None::<()>) });
        assert_eq!(failed, Err(1));
    }

    #[test]
    fn wait_pauses_between_passes_until_one_completes() {
        let mut passes = 0;
        let mut pauses = 0;
        let r = wait(
            || {
                passes += 1;
                Ok::<_, ()>(if passes < 4 {
                    Pass::Pending
                } else {
                    Pass::Done(7, "x")
                })
            },
            || pauses += 1,
        );
        assert_eq!(r, Ok(Some((7, "x"))));
        assert_eq!((passes, pauses), (4, 3));
        let mut pauses = 0;
        assert_eq!(
            wait(|| Ok::<Pass<()>, ()>(Pass::Empty), || pauses += 1),
            Ok(None)
        );
        assert_eq!(pauses, 0, "nothing live: returns at once");
        assert_eq!(wait(|| Err::<Pass<()>, _>("bad"), || {}), Err("bad"));
    }
}
