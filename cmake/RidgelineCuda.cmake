# RIDGELINE_WITH_CUDA: AUTO (the default) turns CUDA on when CMake finds nvcc
# (CUDACXX, the PATH, or /usr/local/cuda/bin) and off otherwise; ON insists; OFF builds the
# stubs. With CUDA off every GPU feature still compiles and reports itself unavailable,
# naming this option.
set(RIDGELINE_WITH_CUDA "AUTO" CACHE STRING "Build the GPU kernels and collectors: AUTO, ON or OFF")
set_property(CACHE RIDGELINE_WITH_CUDA PROPERTY STRINGS AUTO ON OFF)

set(RIDGELINE_CUDA_ENABLED OFF)
set(RIDGELINE_CUDA_OFF_REASON "configured with -DRIDGELINE_WITH_CUDA=OFF")
if(NOT RIDGELINE_WITH_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(RIDGELINE_CUDA_ENABLED ON)
  elseif(RIDGELINE_WITH_CUDA STREQUAL "ON")
    message(FATAL_ERROR "RIDGELINE_WITH_CUDA=ON but no CUDA compiler was found: set CUDACXX or CMAKE_CUDA_COMPILER")
  else()
    set(RIDGELINE_CUDA_OFF_REASON "no CUDA compiler (nvcc) found when configuring: install the CUDA toolkit and reconfigure with -DRIDGELINE_WITH_CUDA=ON")
  endif()
endif()

if(RIDGELINE_CUDA_ENABLED)
  # Hopper (H100/H200) by default; a list such as "80;90" builds for more devices.
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)
  endif()
  set(CMAKE_CUDA_STANDARD 17)  # CMake 3.25 has no CUDA20 for nvcc
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  message(STATUS "Ridgeline: CUDA ${CUDAToolkit_VERSION} for architectures ${CMAKE_CUDA_ARCHITECTURES}")
else()
  message(STATUS "Ridgeline: CUDA off: ${RIDGELINE_CUDA_OFF_REASON}")
endif()
# For scripts (gpu-bundle, gpu-check) that ask a build tree whether it has CUDA.
set(RIDGELINE_CUDA_BUILT ${RIDGELINE_CUDA_ENABLED} CACHE INTERNAL "CUDA compiled into this build")
