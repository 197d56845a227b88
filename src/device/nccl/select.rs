//! When the NCCL path may run: a pure function of what every rank found, so each fallback
//! reason is unit-tested without a GPU.

use crate::device::Memory;
use nexar_proto::{Datatype, ReduceOp};

/// Why a collective takes the staged CUDA path instead of NCCL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fallback {
    /// nexar was built without the `nccl` feature.
    FeatureOff,
    /// `libnccl.so` (or the CUDA driver) could not be loaded on some rank of the host.
    NcclMissing,
    /// Local rank `local_rank` has no GPU to run NCCL on.
    NoGpu {
        /// The local rank without a GPU.
        local_rank: usize,
    },
    /// Two local ranks use the same GPU (NCCL needs one distinct GPU per rank).
    SharedGpu {
        /// The shared device ordinal.
        ordinal: i32,
        /// The two local ranks that share it.
        local_ranks: (usize, usize),
    },
    /// A buffer of the call is host memory (`Host`) or managed memory.
    NotDevice(Memory),
    /// A buffer lives on another GPU than the one this rank's NCCL communicator uses.
    WrongGpu {
        /// The buffer's device.
        buffer: i32,
        /// The rank's NCCL device.
        rank: i32,
    },
    /// NCCL has no such element type (16-bit integers, the pair types).
    Datatype(Datatype),
    /// NCCL has no such reduction (the logical and bitwise ones).
    Op(ReduceOp),
    /// Making the host's NCCL communicator failed (the message says how).
    NcclInit(String),
    /// Another rank fell back (its reason is logged there).
    Elsewhere,
    /// Automatic routing found no GPU for rank `rank` of the communicator: the buffers of its
    /// first routable collective were host memory and no CUDA context was current.
    NoGpuChosen {
        /// The rank (in the communicator) without a GPU.
        rank: u32,
    },
}

impl Fallback {
    /// A small code for agreeing across ranks (0 is "no fallback").
    pub fn code(&self) -> u8 {
        match self {
            Self::FeatureOff => 1,
            Self::NcclMissing => 2,
            Self::NoGpu { .. } => 3,
            Self::SharedGpu { .. } => 4,
            Self::NotDevice(_) => 5,
            Self::WrongGpu { .. } => 6,
            Self::Datatype(_) => 7,
            Self::Op(_) => 8,
            Self::Elsewhere => 9,
            Self::NcclInit(_) => 10,
            Self::NoGpuChosen { .. } => 11,
        }
    }
}

impl std::fmt::Display for Fallback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::FeatureOff => write!(f, "nexar was built without the `nccl` feature"),
            Self::NcclMissing => write!(f, "libnccl or the CUDA driver could not be loaded"),
            Self::NoGpu { local_rank } => write!(f, "local rank {local_rank} has no GPU"),
            Self::SharedGpu {
                ordinal,
                local_ranks: (a, b),
            } => write!(f, "local ranks {a} and {b} share GPU {ordinal}"),
            Self::NotDevice(m) => write!(f, "a buffer is {m:?} memory, not device memory"),
            Self::WrongGpu { buffer, rank } => {
                write!(
                    f,
                    "a buffer is on GPU {buffer}, the rank's NCCL GPU is {rank}"
                )
            }
            Self::Datatype(d) => write!(f, "NCCL has no {d:?} element type"),
            Self::Op(o) => write!(f, "NCCL has no {o:?} reduction"),
            Self::NcclInit(e) => write!(f, "setting up NCCL failed: {e}"),
            Self::Elsewhere => write!(f, "another rank fell back"),
            Self::NoGpuChosen { rank } => write!(
                f,
                "rank {rank} has no GPU to use (its first collective's buffers were host \
                 memory and no CUDA context was current)"
            ),
        }
    }
}

/// What the set-up of a hierarchical communicator found on one host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostSetup<'a> {
    /// Built with the `nccl` feature.
    pub feature: bool,
    /// NCCL and the driver loaded, on every local rank.
    pub nccl_loadable: bool,
    /// The GPU each local rank uses (`None`: it has none), in local rank order.
    pub gpus: &'a [Option<i32>],
}

/// Whether a host may run NCCL among its ranks: each rank needs its own GPU.
pub fn select_host(s: &HostSetup<'_>) -> Result<(), Fallback> {
    if !s.feature {
        return Err(Fallback::FeatureOff);
    }
    if !s.nccl_loadable {
        return Err(Fallback::NcclMissing);
    }
    for (i, g) in s.gpus.iter().enumerate() {
        let Some(g) = g else {
            return Err(Fallback::NoGpu { local_rank: i });
        };
        if let Some(j) = s.gpus[..i].iter().position(|h| h == &Some(*g)) {
            return Err(Fallback::SharedGpu {
                ordinal: *g,
                local_ranks: (j, i),
            });
        }
    }
    Ok(())
}

/// Whether one call may take the NCCL path on this rank: every buffer on the rank's GPU
/// `gpu`, and (for reductions) a type and operator NCCL has.
pub fn select_call(
    gpu: i32,
    buffers: &[Memory],
    reduction: Option<(Datatype, ReduceOp)>,
) -> Result<(), Fallback> {
    for m in buffers {
        match *m {
            Memory::Device { ordinal } if ordinal == gpu => {}
            Memory::Device { ordinal } => {
                return Err(Fallback::WrongGpu {
                    buffer: ordinal,
                    rank: gpu,
                });
            }
            other => return Err(Fallback::NotDevice(other)),
        }
    }
    if let Some((d, op)) = reduction {
        nccl_type(d).ok_or(Fallback::Datatype(d))?;
        nccl_op(op).ok_or(Fallback::Op(op))?;
    }
    Ok(())
}

/// NCCL's number for element type `d` (`ncclDataType_t`), if it has one.
pub fn nccl_type(d: Datatype) -> Option<u32> {
    Some(match d {
        Datatype::I8 => 0,
        Datatype::U8 => 1,
        Datatype::I32 => 2,
        Datatype::U32 => 3,
        Datatype::I64 => 4,
        Datatype::U64 => 5,
        Datatype::F16 => 6,
        Datatype::F32 => 7,
        Datatype::F64 => 8,
        Datatype::Bf16 => 9,
        _ => return None,
    })
}

/// NCCL's number for reduction `op` (`ncclRedOp_t`), if it has one.
pub fn nccl_op(op: ReduceOp) -> Option<u32> {
    Some(match op {
        ReduceOp::Sum => 0,
        ReduceOp::Prod => 1,
        ReduceOp::Max => 2,
        ReduceOp::Min => 3,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEV0: Memory = Memory::Device { ordinal: 0 };

    fn host(feature: bool, nccl_loadable: bool, gpus: &[Option<i32>]) -> Result<(), Fallback> {
        select_host(&HostSetup {
            feature,
            nccl_loadable,
            gpus,
        })
    }

    #[test]
    fn a_host_with_one_distinct_gpu_per_rank_selects_nccl() {
        assert_eq!(host(true, true, &[Some(0)]), Ok(()));
        assert_eq!(
            host(true, true, &[Some(3), Some(1), Some(0), Some(2)]),
            Ok(())
        );
    }

    #[test]
    fn every_host_fallback_reason() {
        let two = [Some(0), Some(1)];
        assert_eq!(host(false, true, &two), Err(Fallback::FeatureOff));
        assert_eq!(host(true, false, &two), Err(Fallback::NcclMissing));
        assert_eq!(
            host(true, true, &[Some(0), None]),
            Err(Fallback::NoGpu { local_rank: 1 })
        );
        assert_eq!(
            host(true, true, &[Some(1), Some(0), Some(1)]),
            Err(Fallback::SharedGpu {
                ordinal: 1,
                local_ranks: (0, 2)
            })
        );
        // The first problem in this order is the one reported.
        assert_eq!(host(false, false, &[None]), Err(Fallback::FeatureOff));
    }

    #[test]
    fn every_call_fallback_reason() {
        let sum = Some((Datatype::F32, ReduceOp::Sum));
        assert_eq!(select_call(0, &[DEV0, DEV0], sum), Ok(()));
        assert_eq!(select_call(0, &[DEV0], None), Ok(()));
        assert_eq!(
            select_call(0, &[DEV0, Memory::Host], sum),
            Err(Fallback::NotDevice(Memory::Host))
        );
        assert_eq!(
            select_call(0, &[Memory::Managed], None),
            Err(Fallback::NotDevice(Memory::Managed))
        );
        assert_eq!(
            select_call(1, &[DEV0], None),
            Err(Fallback::WrongGpu { buffer: 0, rank: 1 })
        );
        assert_eq!(
            select_call(0, &[DEV0], Some((Datatype::I16, ReduceOp::Sum))),
            Err(Fallback::Datatype(Datatype::I16))
        );
        assert_eq!(
            select_call(0, &[DEV0], Some((Datatype::I32, ReduceOp::Land))),
            Err(Fallback::Op(ReduceOp::Land))
        );
    }

    #[test]
    fn codes_are_distinct_and_nonzero() {
        let all = [
            Fallback::FeatureOff,
            Fallback::NcclMissing,
            Fallback::NoGpu { local_rank: 0 },
            Fallback::SharedGpu {
                ordinal: 0,
                local_ranks: (0, 1),
            },
            Fallback::NotDevice(Memory::Host),
            Fallback::WrongGpu { buffer: 0, rank: 1 },
            Fallback::Datatype(Datatype::I16),
            Fallback::Op(ReduceOp::Lxor),
            Fallback::NcclInit("ncclCommInitRank failed".into()),
            Fallback::Elsewhere,
            Fallback::NoGpuChosen { rank: 2 },
        ];
        let mut codes: Vec<u8> = all.iter().map(Fallback::code).collect();
        assert!(codes.iter().all(|&c| c != 0));
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), all.len());
        assert!(all.iter().all(|f| !f.to_string().is_empty()));
    }
}
