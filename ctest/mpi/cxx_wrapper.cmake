# ctest mpi.cxx_wrapper: builds the C++ program legacy_ring.cpp with the installed mpicxx
# wrapper and runs it with the installed mpiexec on 2 ranks (1 without the launcher), checking
# its report.
# Arguments (-D): PREFIX BINDIR WORKDIR SOURCE_DIR HAS_NEXARRUN
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
set(bin "${PREFIX}/${BINDIR}")
if(HAS_NEXARRUN)
  set(launch "${bin}/mpiexec" -n 2 --timeout 120)
  set(ranks 2)
else()
  set(launch "")
  set(ranks 1)
endif()

set(name legacy_ring)
execute_process(
  COMMAND "${bin}/mpicxx" -std=c++17 -Wall -Wextra -Werror "${SOURCE_DIR}/${name}.cpp"
          -o "${WORKDIR}/${name}"
  WORKING_DIRECTORY "${WORKDIR}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "mpicxx ${name}.cpp failed (${rc}):\n${out}")
endif()
execute_process(COMMAND ${launch} "${WORKDIR}/${name}"
  WORKING_DIRECTORY "${WORKDIR}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${name}: ${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${name} (built by mpicxx) failed with status ${rc}")
endif()
if(NOT out MATCHES "${name}: ${ranks} ranks OK")
  message(FATAL_ERROR "${name} did not report '${name}: ${ranks} ranks OK'")
endif()
