#pragma once
// What this binary was built from: defined in a file generated at every build
// (cmake/BuildInfo.cmake), so the commit is the one built, not the one configured.
#include <string>

namespace ridgeline {

struct BuildInfo {
  std::string commit;    // git describe --always --dirty of the source tree
  std::string compiler;  // "GNU 12.2.0"
  std::string flags;     // the C++ flags of the build type, -march included
};
const BuildInfo& build_info();

}  // namespace ridgeline
