# Unity batches: a target's C++ files compiled eight to a translation unit, so the inline
# code of the headers they share (CLI11's parser, Qt's containers, GoogleTest, nlohmann/json)
# is instantiated and optimised once per batch instead of once per file. Precompiled headers
# save the parsing only; this was the rest (the command's 16 files: 265 cpu-s one by one,
# 54 s as one unit; the dashboard's 10: 132 against 26; GCC 12, Zen 3). A file's helpers
# in an anonymous namespace share the batch, so their names must differ between the files
# of a target. RIDGELINE_UNITY=OFF compiles file by file (what a change to one file rebuilds
# least).
option(RIDGELINE_UNITY "Compile each target's C++ files in batches of eight" ON)

# ridgeline_unity(target ...): batches for these targets when RIDGELINE_UNITY is on.
function(ridgeline_unity)
  if(RIDGELINE_UNITY)
    set_target_properties(${ARGN} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
    # GCC warns of a type from an anonymous namespace used by a type outside it (a gtest
    # fixture or parameter struct under TEST_F and TEST_P) unless both are in the main file,
    # an ODR hazard between translation units; in a batch no file is the main one, and the
    # batch is one translation unit.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      foreach(target IN LISTS ARGN)
        target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wno-subobject-linkage>)
      endforeach()
    endif()
  endif()
endfunction()
