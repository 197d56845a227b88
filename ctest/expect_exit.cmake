# Runs a test program and checks how it ended (for tests that must fail in a precise way).
#
#   cmake -DPROG=<program> [-DARGS=<args>] [-DLAUNCHER=<nexarrun> -DNP=<n>]
#         [-DHYDRA=1 [-DHYDRA_OPTS=<opts>]] (LAUNCHER is then mpiexec.hydra)
#         -DEXPECT=<exit code | abnormal> [-DREGEX=<regex>] -P expect_exit.cmake
#
# EXPECT=<n>: the exit status must be exactly n. EXPECT=abnormal: the process (or job) must not
# have ended normally with status 0 (a signal, or a non-zero status from the launcher that
# reports one). REGEX, if set, must match the combined output.

if(NOT PROG OR NOT DEFINED EXPECT)
  message(FATAL_ERROR "expect_exit.cmake: PROG and EXPECT are required")
endif()
set(cmd "${PROG}")
if(NOT "${ARGS}" STREQUAL "")
  list(APPEND cmd ${ARGS})
endif()
if(LAUNCHER AND HYDRA)
  # mpiexec.hydra (ctest/hydra.cmake): no --timeout option; execute_process bounds it below.
  set(cmd "${LAUNCHER}" ${HYDRA_OPTS} -n "${NP}" ${cmd})
elseif(LAUNCHER)
  set(cmd "${LAUNCHER}" -n "${NP}" --timeout 50 -- ${cmd})
endif()

execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 55)
set(all "${out}${err}")
message("command: ${cmd}\nexit: ${rc}\n--- output ---\n${all}--- end ---")

set(ok TRUE)
if(EXPECT STREQUAL "abnormal")
  # An integer 0 is the only normal, successful end; a signal gives a text such as
  # "Child aborted", a launcher a non-zero status.
  if(rc STREQUAL "0")
    set(ok FALSE)
    message("FAIL: expected an abnormal end, the program exited with status 0")
  endif()
elseif(NOT rc STREQUAL "${EXPECT}")
  set(ok FALSE)
  message("FAIL: expected exit status ${EXPECT}, got '${rc}'")
endif()
if(NOT "${REGEX}" STREQUAL "" AND NOT all MATCHES "${REGEX}")
  set(ok FALSE)
  message("FAIL: the output does not match: ${REGEX}")
endif()
if(NOT ok)
  message(FATAL_ERROR "expect_exit: ${PROG} did not end as expected")
endif()
message("PASSED: ended as expected (${EXPECT})")
