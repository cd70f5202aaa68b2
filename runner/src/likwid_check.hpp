#pragma once
// likwid-bench as the probe's independent reference: each memory ceiling measured again with
// likwid-bench's kernel of the same kind and instruction width, at the same working set and
// thread count (docs/roofline.md, "The probe checks itself").
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "ridgeline/core/machine_model.hpp"

namespace ridgeline {

// likwid-bench's test for a stream kernel ("read", "write", "copy", "triad") at an instruction
// width ("scalar", "avx2", "avx512"): load/store/copy/triad with "", "_avx" or "_avx512".
// "" for a kernel it has no test for.
std::string likwid_test_for(const std::string& kernel, const std::string& isa);

// The bandwidth in likwid-bench's output (its "MByte/s:" line, 10^6 bytes per second), or
// nullopt where there is none.
std::optional<double> likwid_bench_bytes_per_s(const std::string& output);

// `ceiling` measured by likwid-bench (found on PATH) for about `seconds`, the best of
// `trials` runs, at the width the ceiling's best rate came from: the check, or nullopt with
// `why` (likwid-bench absent, failed, or printed no rate). Each run costs likwid-bench's own
// clock calibration, about a second, on top of `seconds`. With `measure_ours`, our kernel is
// measured again right before each of likwid-bench's runs and the ratio is of the two bests:
// DRAM's rate drifts by 5-10% within a minute on the Zen 4 VM, so a comparison with a rate
// taken earlier would judge the drift.
std::optional<CeilingCheck> check_with_likwid_bench(
    const MemoryCeiling& ceiling, double seconds, int trials, std::string& why,
    const std::function<double()>& measure_ours = {});

}  // namespace ridgeline
