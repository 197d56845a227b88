# Included by the ctest scripts that build programs with the installed compiler wrappers
# (cxx_wrapper.cmake, f_wrapper.cmake). Arguments (-D) of the including script: PREFIX BINDIR
# WORKDIR SOURCE_DIR HAS_NEXARRUN. Empties WORKDIR and runs the programs with the installed
# mpiexec on 2 ranks (1 without the launcher).
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

# wrapper_case(<wrapper> <source> <name> <flags...>): builds SOURCE_DIR/<source> with the
# installed <wrapper> and <flags> into WORKDIR/<name>, runs it, and checks it exits 0 and
# reports "<name>: <ranks> ranks OK".
function(wrapper_case wrapper source name)
  execute_process(
    COMMAND "${bin}/${wrapper}" ${ARGN} "${SOURCE_DIR}/${source}" -o "${WORKDIR}/${name}"
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
endfunction()
