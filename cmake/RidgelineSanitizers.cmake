# RIDGELINE_SANITIZE: every target compiled and linked with AddressSanitizer and
# UndefinedBehaviorSanitizer (the `asan` preset). Any error stops the process (no
# recovery), so a test or fuzz run fails on the first one.
#
# RIDGELINE_FUZZ: the libFuzzer targets in tests/fuzz (clang only). The code they read
# with (core, analysis, reports) is instrumented for coverage (-fsanitize=fuzzer-no-link,
# ridgeline_fuzz_coverage); the targets link libFuzzer. The rest is not: coverage of code a
# fuzzer never reaches only costs build time.
option(RIDGELINE_SANITIZE "Build with ASan and UBSan" OFF)
option(RIDGELINE_FUZZ "Build the libFuzzer targets (needs clang)" OFF)

# The sanitized build compiles at -O0 (the asan preset: half clang's compile time at -O1),
# but for the kernels and their tests (RIDGELINE_SANITIZED_KERNEL_OPT, applied in
# kernels/CMakeLists.txt and tests/CMakeLists.txt), which run large problems and reference
# loops that -O0 makes several times slower.
set(RIDGELINE_SANITIZED_KERNEL_OPT "-O1" CACHE STRING
    "Optimisation of the kernels in a sanitized build (the rest: the preset's)")

if(RIDGELINE_SANITIZE)
  set(_ridgeline_san -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${_ridgeline_san}>")
  add_link_options(-fsanitize=address,undefined)
  # The instrumentation keeps clang from vectorising the kernels' `omp simd` loops, and it
  # says so once per loop (-Wpass-failed): true of this build only, and not a defect.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:-Wno-pass-failed>")
  endif()
endif()

if(RIDGELINE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "RIDGELINE_FUZZ needs clang (libFuzzer): configure with the asan preset, "
                        "or -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_C_COMPILER=clang-14")
  endif()
  if(NOT RIDGELINE_SANITIZE)
    message(FATAL_ERROR "RIDGELINE_FUZZ needs RIDGELINE_SANITIZE=ON: a fuzzer without ASan and "
                        "UBSan finds only the crashes that happen to segfault")
  endif()
endif()

function(ridgeline_fuzz_coverage)
  foreach(t ${ARGN})
    target_compile_options(${t} PRIVATE "$<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=fuzzer-no-link>")
  endforeach()
endfunction()
