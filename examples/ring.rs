//! Passes a token around a ring of ranks with blocking point-to-point messages; each rank adds
//! its rank, and rank 0 checks the total when the token comes home.

use nexar::{Context, Source, TagMatch};

fn main() -> nexar::Result<()> {
    let ctx = Context::init()?;
    let w = ctx.world();
    let (me, n) = (w.rank(), w.size());
    if n == 1 {
        println!("rank 0/1: a ring of one, nothing to pass");
        return Ok(());
    }
    let (right, left) = ((me + 1) % n, (me + n - 1) % n);
    let mut token = [0u64];
    if me == 0 {
        w.send_blocking(&token, right, 0)?;
        w.recv_blocking(&mut token, Source::Rank(left), TagMatch::Tag(0))?;
        let want = (n as u64) * (n as u64 - 1) / 2;
        assert_eq!(token[0], want, "token total");
        println!(
            "rank 0/{n}: token came home with {} (expected {want})",
            token[0]
        );
    } else {
        w.recv_blocking(&mut token, Source::Rank(left), TagMatch::Tag(0))?;
        token[0] += me as u64;
        w.send_blocking(&token, right, 0)?;
    }
    Ok(())
}
