#pragma once
#include "ridgeline/kernels/kernel.hpp"
#include "ridgeline/runner/case_spec.hpp"

namespace ridgeline {

// What the kernel says it is; a backend no kernel answers to is guessed from its name.
CaseDetails details_for(const CaseSpec& spec, const WorkModel& work, const KernelInfo* info);

}  // namespace ridgeline
