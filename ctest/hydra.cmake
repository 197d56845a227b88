# Runs under MPICH's process manager, `mpiexec.hydra` (PMI-1; Debian package `mpich`, which
# scripts/test.sh installs): a nexar C program and MPI programs through the shim, each checking
# its own results, at every rank count of NEXAR_CTEST_RANKS, over the inherited socket
# (PMI_FD, hydra's default) and, for the MPI collectives, over TCP (`-pmi-port`). Plus an abort
# under hydra: the job must end with the abort code. Included at the end of ctest/CMakeLists.txt.
#
# Tests are named hydra.<program>[.port].np<n> (not test_*, so the sanitizer pass, which runs
# `-R '^test_'` under nexarrun, leaves them out).

find_program(NEXAR_MPIEXEC_HYDRA mpiexec.hydra)
if(NOT NEXAR_MPIEXEC_HYDRA)
  message(WARNING "mpiexec.hydra not found (apt-get install mpich): the PMI/hydra CTest runs "
                  "are NOT registered")
  return()
endif()

# Launch variables of other launchers must not leak into a hydra job.
set(_hydra_unset "")
foreach(var IN ITEMS NEXAR_RANK NEXAR_SIZE NEXAR_LOCAL_RANK NEXAR_RENDEZVOUS
                     NEXAR_RENDEZVOUS_HOST NEXAR_SECRET_FD NEXAR_JOB_SECRET_FILE NEXAR_EPOCH
                     OMPI_COMM_WORLD_RANK OMPI_COMM_WORLD_SIZE SLURM_PROCID SLURM_NTASKS RANK
                     WORLD_SIZE)
  list(APPEND _hydra_unset "${var}=unset:")
endforeach()

# nexar_hydra_test(<target> [PORT]): hydra.<target>[.port].np<n> runs
# `mpiexec.hydra [-pmi-port] -n <n> <target>` for every n in NEXAR_CTEST_RANKS.
function(nexar_hydra_test target)
  cmake_parse_arguments(A "PORT" "" "" ${ARGN})
  set(opts "")
  set(suffix "")
  if(A_PORT)
    set(opts -pmi-port)
    set(suffix .port)
  endif()
  foreach(n IN LISTS NEXAR_CTEST_RANKS)
    set(t hydra.${target}${suffix}.np${n})
    add_test(NAME ${t} COMMAND ${NEXAR_MPIEXEC_HYDRA} ${opts} -n ${n} $<TARGET_FILE:${target}>)
    set_tests_properties(${t} PROPERTIES TIMEOUT 120 PROCESSORS ${n}
                                         LABELS "nexar-ctest;hydra"
                                         ENVIRONMENT_MODIFICATION "${_hydra_unset}")
  endforeach()
endfunction()

# Programs that print the world size: the run passes only if it is exactly n (a program that
# failed to join and ran as n singletons would print "of 1"), and the exit status is 0.
# nexar_hydra_world(<target> <regex with @N@ and @LAST@> [PORT] [ARGS_N]): registers
# hydra.<target>[.port].np<n>; ARGS_N passes n as the program's argument.
function(nexar_hydra_world target regex)
  cmake_parse_arguments(A "PORT;ARGS_N" "" "" ${ARGN})
  set(opts "")
  set(suffix "")
  if(A_PORT)
    set(opts -pmi-port)
    set(suffix .port)
  endif()
  foreach(n IN LISTS NEXAR_CTEST_RANKS)
    math(EXPR last "${n} - 1")
    string(REPLACE "@N@" "${n}" re "${regex}")
    string(REPLACE "@LAST@" "${last}" re "${re}")
    set(args "")
    if(A_ARGS_N)
      set(args ${n})
    endif()
    set(t hydra.${target}${suffix}.np${n})
    add_test(NAME ${t}
             COMMAND ${CMAKE_COMMAND} "-DLAUNCHER=${NEXAR_MPIEXEC_HYDRA}" -DHYDRA=1 "-DHYDRA_OPTS=${opts}"
                     "-DNP=${n}" "-DPROG=$<TARGET_FILE:${target}>" "-DARGS=${args}"
                     -DEXPECT=0 "-DREGEX=${re}"
                     -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/expect_exit.cmake)
    set_tests_properties(${t} PROPERTIES TIMEOUT 90 PROCESSORS ${n} LABELS "nexar-ctest;hydra"
                                         ENVIRONMENT_MODIFICATION "${_hydra_unset}")
  endforeach()
endfunction()

# ctest/mpi/hydra_world.c, built here (only when hydra is installed).
add_executable(test_mpi_hydra_world mpi/hydra_world.c)
target_link_libraries(test_mpi_hydra_world PRIVATE nexar::mpi)
set_target_properties(test_mpi_hydra_world PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON
                                                      C_EXTENSIONS OFF)
target_compile_options(test_mpi_hydra_world PRIVATE -Wall -Wextra -Werror)
nexar_hydra_world(hello_allreduce "hello from rank @LAST@ of @N@ .*: allreduce of [0-9]+ elements ok")
nexar_hydra_world(test_mpi_hydra_world "hydra world of @N@: rank @LAST@ verified" ARGS_N)
nexar_hydra_world(test_mpi_hydra_world "hydra world of @N@: rank @LAST@ verified" ARGS_N PORT)

# Programs that check their own results at any size (under the world tests above).
nexar_hydra_test(test_p2p)
nexar_hydra_test(test_comms)
nexar_hydra_test(test_mpi_coll)
nexar_hydra_test(test_mpi_p2p)
nexar_hydra_test(test_mpi_coll PORT)

# nexar_abort(3) on the last rank: hydra ends the job with status 3 (bounded by TIMEOUT).
foreach(n IN LISTS NEXAR_CTEST_RANKS)
  set(t hydra.test_abort.np${n})
  add_test(NAME ${t}
           COMMAND ${CMAKE_COMMAND} "-DLAUNCHER=${NEXAR_MPIEXEC_HYDRA}" -DHYDRA=1 "-DNP=${n}"
                   "-DPROG=$<TARGET_FILE:test_abort>" "-DEXPECT=3" "-DREGEX=nexar_abort\\(3\\)"
                   -P ${CMAKE_CURRENT_LIST_DIR}/expect_exit.cmake)
  set_tests_properties(${t} PROPERTIES TIMEOUT 90 PROCESSORS ${n} LABELS "nexar-ctest;hydra"
                                       ENVIRONMENT_MODIFICATION "${_hydra_unset}")
endforeach()
