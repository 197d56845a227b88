# ctest nexar.consumer.cmake: configures, builds and tests cmake/consumer (a separate project
# using find_package(nexar)) against the installed tree at PREFIX. Its tests run under the
# installed nexarrun (np1 and np2; np2 is disabled in an installation without the launcher).
# Arguments (-D): PREFIX SOURCE_DIR BINARY_DIR GENERATOR C_COMPILER Fortran_COMPILER HAS_FORTRAN
#                 HAS_NEXARRUN
cmake_minimum_required(VERSION 3.20)

include("${CMAKE_CURRENT_LIST_DIR}/run_command.cmake")

file(REMOVE_RECURSE "${BINARY_DIR}")
set(args -S "${SOURCE_DIR}" -B "${BINARY_DIR}" -G "${GENERATOR}"
  "-DCMAKE_PREFIX_PATH=${PREFIX}" "-DCMAKE_C_COMPILER=${C_COMPILER}"
  -DCMAKE_BUILD_TYPE=Release)
if(HAS_FORTRAN)
  list(APPEND args "-DCMAKE_Fortran_COMPILER=${Fortran_COMPILER}")
endif()
run("${CMAKE_COMMAND}" ${args})
run("${CMAKE_COMMAND}" --build "${BINARY_DIR}")

# The programs must load the installed library, not the one in the build tree.
find_program(LDD ldd)
if(LDD)
  foreach(exe app app_static app_mpi)
    execute_process(COMMAND "${LDD}" "${BINARY_DIR}/${exe}" OUTPUT_VARIABLE deps)
    if(exe STREQUAL "app")
      string(FIND "${deps}" "libnexar.so.0 => ${PREFIX}/" at)
      if(at EQUAL -1)
        message(FATAL_ERROR "app does not load the installed libnexar.so.0:\n${deps}")
      endif()
    elseif(exe STREQUAL "app_mpi")
      string(FIND "${deps}" "libmpi_abi.so.1 => ${PREFIX}/" at)
      if(at EQUAL -1)
        message(FATAL_ERROR "app_mpi does not load the installed libmpi_abi.so.1:\n${deps}")
      endif()
    elseif(deps MATCHES "libnexar")
      message(FATAL_ERROR "app_static loads a shared libnexar:\n${deps}")
    endif()
  endforeach()
endif()

execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${BINARY_DIR}" --output-on-failure
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the consumer's tests failed")
endif()
set(kinds shared static mpi)
if(HAS_FORTRAN)
  list(APPEND kinds fortran mpi_fortran)
endif()
set(expected "")
foreach(kind IN LISTS kinds)
  list(APPEND expected consumer.${kind}.np1)
  if(HAS_NEXARRUN)
    list(APPEND expected consumer.${kind}.np2)
  endif()
endforeach()
foreach(t IN LISTS expected)
  if(NOT out MATCHES "${t} [.]+ +Passed")
    message(FATAL_ERROR "the consumer's test ${t} did not pass")
  endif()
endforeach()
