//! Selection for bcast, reduce and allreduce.
