#pragma once
// A kernel that does nothing, for measuring the cost of one call through the runner.
// Defined in its own translation unit so the call stays an indirect call.
#include <memory>

#include "ridgeline/kernels/kernel.hpp"

namespace ridgeline {
std::unique_ptr<Kernel> make_empty_kernel();
}
