# ctest nexar.consumer.findmpi: configures cmake/findmpi (an unmodified project using
# find_package(MPI REQUIRED COMPONENTS C) and MPI::MPI_C) with MPI_HOME=PREFIX, checks that
# FindMPI picked nexar's mpicc, mpiexec and libmpi_abi (also when another MPI, e.g. Open MPI,
# is installed on the system), builds it, and runs its ctest: the program at 4 ranks under
# ${MPIEXEC_EXECUTABLE} must report nexar as its library.
# Arguments (-D): PREFIX SOURCE_DIR BINARY_DIR GENERATOR C_COMPILER
cmake_minimum_required(VERSION 3.20)

include("${CMAKE_CURRENT_LIST_DIR}/run_command.cmake")

file(REMOVE_RECURSE "${BINARY_DIR}")
# MPI_HOME both ways FindMPI reads it: the variable and the environment.
set(ENV{MPI_HOME} "${PREFIX}")
run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${BINARY_DIR}" -G "${GENERATOR}"
  "-DMPI_HOME=${PREFIX}" "-DCMAKE_C_COMPILER=${C_COMPILER}" -DCMAKE_BUILD_TYPE=Release)

# What FindMPI found must lie in PREFIX (paths compared after resolving links).
file(STRINGS "${BINARY_DIR}/CMakeCache.txt" cache)
get_filename_component(real_prefix "${PREFIX}" REALPATH)
foreach(var MPIEXEC_EXECUTABLE MPI_C_COMPILER MPI_mpi_abi_LIBRARY)
  set(value "")
  foreach(line IN LISTS cache)
    if(line MATCHES "^${var}:[A-Z]+=(.*)$")
      set(value "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  get_filename_component(real "${value}" REALPATH)
  string(FIND "${real}" "${real_prefix}/" at)
  if(value STREQUAL "" OR NOT at EQUAL 0)
    message(FATAL_ERROR "FindMPI: ${var} is '${value}', not under ${PREFIX}")
  endif()
  message(STATUS "${var} = ${value}")
endforeach()
foreach(line IN LISTS cache)
  if(line MATCHES "^MPI_C_LIB_NAMES:[A-Z]+=(.*)$" AND NOT CMAKE_MATCH_1 STREQUAL "mpi_abi")
    message(FATAL_ERROR "FindMPI: MPI_C_LIB_NAMES is '${CMAKE_MATCH_1}', expected mpi_abi")
  endif()
endforeach()

run("${CMAKE_COMMAND}" --build "${BINARY_DIR}")

find_program(LDD ldd)
if(LDD)
  execute_process(COMMAND "${LDD}" "${BINARY_DIR}/app" OUTPUT_VARIABLE deps)
  string(FIND "${deps}" "libmpi_abi.so.1 => ${PREFIX}/" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "app does not load libmpi_abi.so.1 from ${PREFIX}:\n${deps}")
  endif()
endif()

execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${BINARY_DIR}" --output-on-failure
  -V RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the FindMPI consumer's test failed")
endif()
if(NOT out MATCHES "library: nexar" OR NOT out MATCHES "ranks: 4" OR NOT out MATCHES "allreduce: ok")
  message(FATAL_ERROR "the program did not report nexar at 4 ranks with a correct Allreduce")
endif()
