//! Local reductions (`MPI_Reduce_local`): the reduction kernels on two buffers of this process,
//! no communication.

use crate::error::{Error, ErrorKind, Result};
use nexar_proto::{Datatype, Order, ReduceOp, Reducer};

/// `inoutbuf = inbuf ⊕ inoutbuf` element-wise with the predefined `op` on `dtype` (`inbuf` is
/// the left operand, as in `MPI_Reduce_local`). Both buffers hold the same whole number of
/// elements.
pub fn reduce_local(
    op: ReduceOp,
    dtype: Datatype,
    inbuf: &[u8],
    inoutbuf: &mut [u8],
) -> Result<()> {
    reduce_local_with(&Reducer::builtin(op, dtype), inbuf, inoutbuf)
}

/// [`reduce_local`] with any [`Reducer`] (a custom op included).
pub fn reduce_local_with(reducer: &Reducer, inbuf: &[u8], inoutbuf: &mut [u8]) -> Result<()> {
    reducer.check()?;
    if inbuf.len() != inoutbuf.len() {
        return Err(Error::new(
            ErrorKind::InvalidCount,
            format!(
                "reduce_local: input buffer has {} bytes, in-out buffer {}",
                inbuf.len(),
                inoutbuf.len()
            ),
        ));
    }
    reducer.reduce_into(inoutbuf, inbuf, Order::IncFirst)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_and_rejects_bad_arguments() {
        let a: Vec<u8> = [1i32, 2, 3].iter().flat_map(|v| v.to_ne_bytes()).collect();
        let mut b: Vec<u8> = [10i32, 20, 30]
            .iter()
            .flat_map(|v| v.to_ne_bytes())
            .collect();
        reduce_local(ReduceOp::Sum, Datatype::I32, &a, &mut b).unwrap();
        let want: Vec<u8> = [11i32, 22, 33]
            .iter()
            .flat_map(|v| v.to_ne_bytes())
            .collect();
        assert_eq!(b, want);
        let err = reduce_local(ReduceOp::Band, Datatype::F32, &a, &mut b).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidOp);
        let err = reduce_local(ReduceOp::Sum, Datatype::I32, &a[..4], &mut b).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidCount);
        let err = reduce_local(ReduceOp::Sum, Datatype::I32, &a[..3], &mut b[..3]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    }
}
