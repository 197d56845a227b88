//! Selection for allgather(v), gather(v), scatter(v), alltoall(v), reduce_scatter and scan.
