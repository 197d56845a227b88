# ctest mpi.fortran_wrapper: builds Fortran MPI programs with the installed compiler wrappers
# (mpifort for f_wrapper.f90 with `use mpi`, mpif77 for the fixed-form f_legacy.f with
# mpif.h) and runs them with the installed mpiexec on 2 ranks (1 without the launcher),
# checking their reports.
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

foreach(case "mpifort;f_wrapper.f90;f_wrapper" "mpif77;f_legacy.f;f_legacy")
  list(GET case 0 wrapper)
  list(GET case 1 source)
  list(GET case 2 name)
  execute_process(
    COMMAND "${bin}/${wrapper}" -Wall -Werror "${SOURCE_DIR}/${source}" -o "${WORKDIR}/${name}"
    WORKING_DIRECTORY "${WORKDIR}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${wrapper} ${source} failed (${rc}):\n${out}")
  endif()
  execute_process(COMMAND ${launch} "${WORKDIR}/${name}"
    WORKING_DIRECTORY "${WORKDIR}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${name}: ${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name} (built by ${wrapper}) failed with status ${rc}")
  endif()
  if(NOT out MATCHES "${name}: ${ranks} ranks OK")
    message(FATAL_ERROR "${name} did not report '${name}: ${ranks} ranks OK'")
  endif()
endforeach()
