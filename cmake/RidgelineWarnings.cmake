# Warnings every Ridgeline target compiles with; the build stays free of them.
add_library(ridgeline_warnings INTERFACE)
target_compile_options(ridgeline_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow
                                                    -Wnon-virtual-dtor)
