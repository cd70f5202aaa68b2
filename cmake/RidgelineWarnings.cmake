# Warnings every Ridgeline target compiles with; the build stays free of them. nvcc passes
# them to the host compiler for the host side of .cu files.
add_library(ridgeline_warnings INTERFACE)
target_compile_options(ridgeline_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
