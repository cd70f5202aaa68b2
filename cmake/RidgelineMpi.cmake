# RIDGELINE_WITH_MPI (top-level option): runs under mpirun or srun (the cluster module),
# on Open MPI 4.1 from Debian's libopenmpi-dev through its C API. Sets
# RIDGELINE_MPI_ENABLED and, when it is off, RIDGELINE_MPI_OFF_REASON, which the stub
# (cluster/src/rank_world_disabled.cpp) reports (no semicolons in it: it becomes a compile
# definition). Configuring never fails for want of MPI.
set(RIDGELINE_MPI_ENABLED OFF)
set(RIDGELINE_MPI_OFF_REASON "built with -DRIDGELINE_WITH_MPI=OFF")
if(RIDGELINE_WITH_MPI)
  # The C API from C++ (the project has no C); MPI's C++ bindings, deprecated, left out.
  set(MPI_CXX_SKIP_MPICXX ON)
  find_package(MPI COMPONENTS CXX QUIET)
  if(MPI_CXX_FOUND)
    set(RIDGELINE_MPI_ENABLED ON)
  else()
    set(RIDGELINE_MPI_OFF_REASON "no MPI found at configure time (install Open MPI, libopenmpi-dev and openmpi-bin, with scripts/install-deps and reconfigure)")
  endif()
endif()

if(RIDGELINE_MPI_ENABLED)
  message(STATUS "Ridgeline: MPI ${MPI_CXX_VERSION} (${MPI_CXX_LIBRARIES})")
else()
  message(STATUS "Ridgeline: MPI off: ${RIDGELINE_MPI_OFF_REASON}")
endif()
