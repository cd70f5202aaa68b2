#pragma once
#include "ridgeline/core/case_result.hpp"
#include "ridgeline/kernels/kernel.hpp"
#include "ridgeline/runner/case_spec.hpp"

namespace ridgeline {

// What the kernel says it is; a backend no kernel answers to is guessed from its name.
CaseDetails details_for(const CaseSpec& spec, const WorkModel& work, const KernelInfo* info);

// How the prepared kernel ran: its notes and, for an einsum lowering, its steps.
void record_how_it_ran(CaseDetails& d, const Kernel& kernel,
                       std::map<std::string, std::string> notes);

}  // namespace ridgeline
