# ctest mpi.fortran_wrapper: builds Fortran MPI programs with the installed compiler wrappers
# (mpifort for f_wrapper.f90 with `use mpi` and f_f08.f90 with `use mpi_f08`, mpif77 for the
# fixed-form f_legacy.f with mpif.h) and runs them with the installed mpiexec on 2 ranks (1
# without the launcher), checking their reports.
# Arguments (-D): PREFIX BINDIR WORKDIR SOURCE_DIR HAS_NEXARRUN
include("${CMAKE_CURRENT_LIST_DIR}/wrapper_case.cmake")
wrapper_case(mpifort f_wrapper.f90 f_wrapper -Wall -Werror)
wrapper_case(mpifort f_f08.f90 f_f08 -Wall -Werror)
wrapper_case(mpif77 f_legacy.f f_legacy -Wall -Werror)
