#pragma once
// The floating-point environment a CPU case runs in: IEEE (subnormals computed, the
// default) or with subnormal results flushed to zero and subnormal inputs read as zero
// (x86 MXCSR FTZ and DAZ, what -ffast-math's start-up code sets). Some CPUs take a slow
// path for subnormals; the patterns suite measures whether this one does.
#include <optional>
#include <string_view>

namespace ridgeline {

enum class FpEnv { ieee, ftz_daz };

std::string_view to_string(FpEnv env);
std::optional<FpEnv> parse_fp_env(std::string_view text);

}  // namespace ridgeline
