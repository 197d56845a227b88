! A tiny outside Fortran user of nexar: allreduce the ranks and check the sum.
program app
  use nexar
  implicit none
  integer(c_int) :: rank, nranks
  integer(c_int32_t) :: mine(1), total(1)
  if (nexar_init(c_null_ptr, c_null_ptr) /= NEXAR_SUCCESS) error stop "nexar_init"
  if (nexar_comm_rank(nexar_comm_world(), rank) /= NEXAR_SUCCESS) error stop "nexar_comm_rank"
  if (nexar_comm_size(nexar_comm_world(), nranks) /= NEXAR_SUCCESS) error stop "nexar_comm_size"
  mine(1) = rank + 1
  if (nexar_allreduce(mine, total, 1_c_size_t, NEXAR_DTYPE_INT32, NEXAR_OP_SUM, &
                      nexar_comm_world()) /= NEXAR_SUCCESS) error stop "nexar_allreduce"
  if (total(1) /= nranks * (nranks + 1) / 2) error stop "wrong sum"
  print '(a,i0,a,i0,a)', "consumer (fortran): rank ", rank, " of ", nranks, ": ok"
  if (nexar_finalize() /= NEXAR_SUCCESS) error stop "nexar_finalize"
end program app
