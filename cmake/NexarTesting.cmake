# NexarTesting.cmake: CTest helpers for programs that run on several nexar ranks.
#
#   nexar_add_rank_test(NAME <name> COMMAND <target-or-path> [ARGS <args...>]
#                       RANKS <n...> [TIMEOUT <sec>])
#
# Registers one CTest test per rank count, named `<name>.np<n>`, running
#
#   <nexarrun> -n <n> --timeout <sec> -- <command> <args...>
#
# COMMAND is a target name (run as $<TARGET_FILE:...>) or a path. TIMEOUT (default 120) is the
# launcher's limit for the whole job; CTest's own TIMEOUT is set 30 s above it so nexarrun gets
# to end the ranks and report first. Every test gets `LABELS nexar` and `PROCESSORS <n>` (ctest
# caps it at its -j level, so a 4-rank job never shares 2 cores with other jobs).
#
# The launcher is ${NEXAR_NEXARRUN}: set by the nexar source tree for its own tests, and by
# find_package(nexar) to the installed one. When it is empty (a checkout or installation
# without the launcher), `.np1` tests run the program directly (a world of one, like MPI's
# singleton init) and tests for more ranks are registered but DISABLED, so ctest lists them as
# not run instead of silently dropping them.

include_guard(GLOBAL)

function(nexar_add_rank_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;COMMAND;TIMEOUT" "ARGS;RANKS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "nexar_add_rank_test: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_NAME)
    message(FATAL_ERROR "nexar_add_rank_test: NAME is required")
  endif()
  if(NOT arg_COMMAND)
    message(FATAL_ERROR "nexar_add_rank_test(${arg_NAME}): COMMAND is required")
  endif()
  if(NOT arg_RANKS)
    message(FATAL_ERROR "nexar_add_rank_test(${arg_NAME}): RANKS is required")
  endif()
  if(NOT DEFINED arg_TIMEOUT)
    set(arg_TIMEOUT 120)
  endif()
  if(NOT arg_TIMEOUT MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "nexar_add_rank_test(${arg_NAME}): TIMEOUT must be a positive integer, got '${arg_TIMEOUT}'")
  endif()

  if(TARGET "${arg_COMMAND}")
    set(command "$<TARGET_FILE:${arg_COMMAND}>")
  else()
    set(command "${arg_COMMAND}")
  endif()
  math(EXPR ctest_timeout "${arg_TIMEOUT} + 30")

  foreach(n IN LISTS arg_RANKS)
    if(NOT n MATCHES "^[1-9][0-9]*$")
      message(FATAL_ERROR "nexar_add_rank_test(${arg_NAME}): rank count must be a positive integer, got '${n}'")
    endif()
    set(test_name "${arg_NAME}.np${n}")
    set(disabled FALSE)
    if(NEXAR_NEXARRUN)
      add_test(NAME "${test_name}"
        COMMAND "${NEXAR_NEXARRUN}" -n ${n} --timeout ${arg_TIMEOUT} -- "${command}" ${arg_ARGS})
    else()
      add_test(NAME "${test_name}" COMMAND "${command}" ${arg_ARGS})
      if(n GREATER 1)
        set(disabled TRUE)
      endif()
    endif()
    set_tests_properties("${test_name}" PROPERTIES
      LABELS nexar
      PROCESSORS ${n}
      TIMEOUT ${ctest_timeout}
      DISABLED ${disabled})
  endforeach()
endfunction()
