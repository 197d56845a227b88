# pkg-config files of the MPI library: mpi-c.pc, mpi-cxx.pc and mpi-fort.pc (the names FindMPI
# and other tools look for), included by the top-level CMakeLists.txt after the install rules.
#
# Two sets: one in the build tree (<build>/lib/pkgconfig, absolute paths to the staged library
# and the source tree's include/), and one installed next to nexar.pc, relocatable (paths
# relative to ${pcfiledir}).

foreach(_nexar_mpi_pc mpi-c mpi-cxx mpi-fort)
  # Build tree.
  set(NEXAR_PC_PREFIX "${CMAKE_CURRENT_BINARY_DIR}")
  set(NEXAR_PC_LIBDIR "${NEXAR_STAGE_LIBDIR}")
  set(NEXAR_PC_INCLUDEDIR "${CMAKE_CURRENT_SOURCE_DIR}/include")
  set(NEXAR_PC_BINDIR "${NEXAR_STAGE_BINDIR}")
  configure_file("${CMAKE_CURRENT_SOURCE_DIR}/cmake/${_nexar_mpi_pc}.pc.in"
    "${NEXAR_STAGE_LIBDIR}/pkgconfig/${_nexar_mpi_pc}.pc" @ONLY)
  # Installed.
  set(NEXAR_PC_PREFIX "\${pcfiledir}/${NEXAR_PCDIR_TO_PREFIX}")
  set(NEXAR_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(NEXAR_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
  set(NEXAR_PC_BINDIR "\${prefix}/${CMAKE_INSTALL_BINDIR}")
  configure_file("${CMAKE_CURRENT_SOURCE_DIR}/cmake/${_nexar_mpi_pc}.pc.in"
    "${CMAKE_CURRENT_BINARY_DIR}/package/${_nexar_mpi_pc}.pc" @ONLY)
  install(FILES "${CMAKE_CURRENT_BINARY_DIR}/package/${_nexar_mpi_pc}.pc"
    DESTINATION "${NEXAR_INSTALL_PKGCONFIGDIR}")
endforeach()
unset(_nexar_mpi_pc)
unset(NEXAR_PC_PREFIX)
unset(NEXAR_PC_LIBDIR)
unset(NEXAR_PC_INCLUDEDIR)
unset(NEXAR_PC_BINDIR)
