# Precompiled headers: the third-party headers nearly every file includes (nlohmann/json
# comes in through machine_model.hpp, fmt through most printers), parsed once per target
# instead of once per file. The front end was about half of a file's compile time at the
# tests' -O1 (tests/reports/report_test.cpp: 15.5 s, 10.6 s with them; GCC 12, Zen 3);
# CI builds every file three times (release, ASan, TSan). CMAKE_DISABLE_PRECOMPILE_HEADERS
# turns them off.
set(RIDGELINE_PRECOMPILED_HEADERS <string> <vector> <map> <memory> <optional> <fmt/format.h>
                                  <nlohmann/json.hpp>)

# ridgeline_precompile(target [header ...]): the common set plus the target's own; for
# targets of C++ sources only.
function(ridgeline_precompile target)
  target_precompile_headers(${target} PRIVATE ${RIDGELINE_PRECOMPILED_HEADERS} ${ARGN})
  # GCC 12 warns -Warray-bounds and -Wstringop-overread inside std::string's char_traits.h
  # (a memcpy "out of the bounds" of a string it inlined, GCC bug 105651) once libstdc++
  # comes from a precompiled header, where it no longer counts as a system header; the same
  # files compile clean without one. Those two, and -Wstringop-overflow of the same
  # family, off for GCC on these targets only: the kernels keep them, and the ASan build
  # checks every access of this code at run time.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND NOT CMAKE_DISABLE_PRECOMPILE_HEADERS)
    target_compile_options(${target} PRIVATE -Wno-array-bounds -Wno-stringop-overread
                                             -Wno-stringop-overflow)
  endif()
endfunction()
