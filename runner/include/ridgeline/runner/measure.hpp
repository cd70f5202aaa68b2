#pragma once
// A caller's function timed by the harness the suite's kernels are timed by: the same warm-up,
// repetitions until the minimum time, collectors read at the timer's boundaries, cold caches,
// noise figures, into the same results. The Python module's ridgeline.measure() is one caller.
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "ridgeline/kernels/operand_buffer.hpp"
#include "ridgeline/runner/runner.hpp"

namespace ridgeline {

struct CallableMeasurement {
  // Its name and problem: a registered op's (work("gemm", ...)) or `callable`; the backend
  // names the function ("python.numpy.matmul"); threads and cache as the caller ran it.
  CaseSpec spec;
  Device device = Device::cpu;  // whose roofs place it
  KernelRole role = KernelRole::vendor;
  std::string family;  // a fused/unfused pair's stem (eager against compiled), or ""
  WorkModel work;      // per call: the caller's, or the op's
  std::function<void()> call;
  std::vector<MemoryRange> cold_memory;      // flushed before each call with cache=cold
  std::map<std::string, std::string> notes;  // where its work came from, its framework, ...
};

// Stops a measurement at once, recording nothing: the caller was interrupted (Ctrl-C in
// Python), not the function.
struct CallInterrupted : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Calls the function once untimed (a call that throws is recorded crashed, with its error),
// then times it. Its outputs are not checked: not_verified, saying so. CallInterrupted thrown
// by `call` is thrown on.
std::vector<CaseResult> measure_callable(const CallableMeasurement& m, const RunSettings& settings);

}  // namespace ridgeline
