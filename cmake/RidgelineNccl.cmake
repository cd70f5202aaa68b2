# RIDGELINE_WITH_NCCL: AUTO (the default) turns on NCCL's GPU collectives in
# `probe --network` when MPI and CUDA are on and nccl.h is found (the CUDA toolkit's
# include directory, or the system's); ON insists; OFF leaves them out. NCCL is loaded with
# dlopen at run time (libnccl.so.2), as cuBLAS is: only its header is needed to build. Sets
# RIDGELINE_NCCL_ENABLED and, when off, RIDGELINE_NCCL_OFF_REASON (no semicolons: it
# becomes a compile definition), which cluster/src/gpu_network_probe_disabled.cpp reports.
set(RIDGELINE_WITH_NCCL "AUTO" CACHE STRING "NCCL's GPU collectives in probe --network: AUTO, ON or OFF")
set_property(CACHE RIDGELINE_WITH_NCCL PROPERTY STRINGS AUTO ON OFF)

set(RIDGELINE_NCCL_ENABLED OFF)
if(RIDGELINE_WITH_NCCL STREQUAL "OFF")
  set(RIDGELINE_NCCL_OFF_REASON "built with -DRIDGELINE_WITH_NCCL=OFF")
elseif(NOT RIDGELINE_MPI_ENABLED)
  set(RIDGELINE_NCCL_OFF_REASON "NCCL's ranks meet through MPI, which this build lacks")
elseif(NOT RIDGELINE_CUDA_ENABLED)
  set(RIDGELINE_NCCL_OFF_REASON "built without CUDA (${RIDGELINE_CUDA_OFF_REASON})")
else()
  find_path(RIDGELINE_NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
  if(RIDGELINE_NCCL_INCLUDE_DIR)
    set(RIDGELINE_NCCL_ENABLED ON)
  else()
    set(RIDGELINE_NCCL_OFF_REASON "no nccl.h found when configuring (NCCL comes with the CUDA toolkit or NVIDIA's libnccl-dev): install it and reconfigure")
  endif()
endif()
if(RIDGELINE_WITH_NCCL STREQUAL "ON" AND NOT RIDGELINE_NCCL_ENABLED)
  message(FATAL_ERROR "RIDGELINE_WITH_NCCL=ON but ${RIDGELINE_NCCL_OFF_REASON}")
endif()
string(REPLACE ";" "," RIDGELINE_NCCL_OFF_REASON "${RIDGELINE_NCCL_OFF_REASON}")

if(RIDGELINE_NCCL_ENABLED)
  file(STRINGS "${RIDGELINE_NCCL_INCLUDE_DIR}/nccl.h" _nccl_version REGEX "#define NCCL_(MAJOR|MINOR|PATCH) ")
  string(REGEX REPLACE "[^0-9]+" "." _nccl_version "${_nccl_version}")
  string(REGEX REPLACE "^\\." "" _nccl_version "${_nccl_version}")
  message(STATUS "Ridgeline: NCCL ${_nccl_version} headers (libnccl.so.2 loaded at run time)")
else()
  message(STATUS "Ridgeline: NCCL off: ${RIDGELINE_NCCL_OFF_REASON}")
endif()
