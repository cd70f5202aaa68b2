# Warnings every Ridgeline target compiles with; the build stays free of them. nvcc passes
# them to the host compiler for the host side of .cu files.
add_library(ridgeline_warnings INTERFACE)
target_compile_options(ridgeline_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
# AArch64 GCC notes every function passing a std::pair<double, double> that its ABI changed in
# GCC 10.1: about linking with objects built by GCC 9 or older, which no build here does.
if(RIDGELINE_ARCH STREQUAL "aarch64" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(ridgeline_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Wno-psabi>)
endif()
