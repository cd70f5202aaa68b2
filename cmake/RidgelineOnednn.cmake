# RIDGELINE_WITH_ONEDNN (top-level option): the CPU vendor library of the fusion suite,
# oneDNN 2.6 from Debian's libdnnl-dev. Sets RIDGELINE_ONEDNN_ENABLED and, when it is off,
# RIDGELINE_ONEDNN_OFF_REASON, which the stub (kernels/src/onednn/onednn_ops_disabled.cpp)
# reports (no semicolons in it: it becomes a compile definition). Configuring never fails for
# want of oneDNN.
#
# Debian's dnnl-config.cmake is the build with the OpenCL GPU runtime: it calls
# find_package(OpenCL REQUIRED), a fatal error without the OpenCL headers and libOpenCL.so
# (ocl-icd-opencl-dev, only recommended by libdnnl-dev). So OpenCL is looked for first, and
# a package that needs it and lacks it is reported, not loaded.
set(RIDGELINE_ONEDNN_ENABLED OFF)
set(RIDGELINE_ONEDNN_OFF_REASON "built with -DRIDGELINE_WITH_ONEDNN=OFF")
if(RIDGELINE_WITH_ONEDNN)
  find_file(RIDGELINE_DNNL_CONFIG dnnl-config.cmake
    HINTS ${dnnl_DIR} ${dnnl_ROOT} $ENV{dnnl_ROOT}
    PATHS ${CMAKE_PREFIX_PATH} ${CMAKE_SYSTEM_PREFIX_PATH}
    PATH_SUFFIXES lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/dnnl lib/cmake/dnnl lib64/cmake/dnnl
    NO_DEFAULT_PATH)
  set(needs_opencl OFF)
  if(RIDGELINE_DNNL_CONFIG)
    file(STRINGS ${RIDGELINE_DNNL_CONFIG} gpu_runtime REGEX "DNNL_GPU_RUNTIME \"OCL\"")
    if(gpu_runtime)
      set(needs_opencl ON)
      find_package(OpenCL QUIET)
    endif()
  endif()
  if(needs_opencl AND NOT OpenCL_FOUND)
    set(RIDGELINE_ONEDNN_OFF_REASON "oneDNN's CMake package (${RIDGELINE_DNNL_CONFIG}) needs the OpenCL headers and libOpenCL.so, not found at configure time (install ocl-icd-opencl-dev with scripts/install-deps and reconfigure)")
  else()
    find_package(dnnl CONFIG)
    if(dnnl_FOUND AND TARGET DNNL::dnnl)
      set(RIDGELINE_ONEDNN_ENABLED ON)
    else()
      set(RIDGELINE_ONEDNN_OFF_REASON "oneDNN (libdnnl-dev) not found at configure time (install it with scripts/install-deps and reconfigure)")
    endif()
  endif()
endif()

if(RIDGELINE_ONEDNN_ENABLED)
  message(STATUS "Ridgeline: oneDNN ${dnnl_VERSION} (CPU runtime ${DNNL_CPU_RUNTIME})")
else()
  message(STATUS "Ridgeline: oneDNN off: ${RIDGELINE_ONEDNN_OFF_REASON}")
endif()
