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

// Where the check of a ceiling measured at `ceiling_bytes` (`bytes_per_s`) runs: there, or
// larger where one sweep of it would take under kMinLikwidSweepSeconds, up to the last working
// set of the level's plateau (`plateau_last_bytes`). likwid-bench calls its kernel once per
// sweep; at the L1 ceiling's 11 KiB a sweep is ~180 cycles, and the call's overhead cost
// load_avx 5% there (211.6 GB/s, 217-218 at 20-24 KiB on the Zen 4 VM) while our loop, which
// repeats its sweeps itself, is flat over the plateau: a gap in the harnesses, not the kernels.
inline constexpr double kMinLikwidSweepSeconds = 100e-9;
std::int64_t likwid_check_working_set(std::int64_t ceiling_bytes, double bytes_per_s,
                                      std::int64_t plateau_last_bytes);

// `ceiling` measured by likwid-bench (found on PATH) for about `seconds`, the best of
// `trials` runs, at the width the ceiling's best rate came from and at `working_set_bytes`
// (likwid_check_working_set): the check, or nullopt with
// `why` (likwid-bench absent, failed, or printed no rate). Each run costs likwid-bench's own
// clock calibration, about a second, on top of `seconds`. With `measure_ours`, our kernel is
// measured again right before each of likwid-bench's runs and the ratio is of the two bests:
// DRAM's rate drifts by 5-10% within a minute on the Zen 4 VM, so a comparison with a rate
// taken earlier would judge the drift.
std::optional<CeilingCheck> check_with_likwid_bench(
    const MemoryCeiling& ceiling, std::int64_t working_set_bytes, double seconds, int trials,
    std::string& why, const std::function<double()>& measure_ours = {});

}  // namespace ridgeline
