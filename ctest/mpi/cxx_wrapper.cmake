# ctest mpi.cxx_wrapper: builds the C++ program legacy_ring.cpp with the installed mpicxx
# wrapper and runs it with the installed mpiexec on 2 ranks (1 without the launcher), checking
# its report.
# Arguments (-D): PREFIX BINDIR WORKDIR SOURCE_DIR HAS_NEXARRUN
include("${CMAKE_CURRENT_LIST_DIR}/wrapper_case.cmake")
wrapper_case(mpicxx legacy_ring.cpp legacy_ring -std=c++17 -Wall -Wextra -Werror)
