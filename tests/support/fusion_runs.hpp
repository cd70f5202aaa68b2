#pragma once
// Runs with fused and unfused cases, built by hand for the fusion analysis and its
// printers: each case as the runner records it (the kernel's work: the op's fused model
// for a fused backend, the unfused model for an unfused one), times chosen by the test.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "ridgeline/core/op.hpp"
#include "ridgeline/core/run.hpp"

namespace ridgeline::fusion_runs {

inline Problem problem(const std::string& op, const std::string& params,
                       const std::string& pattern = "normal") {
  Problem p;
  p.op = op;
  p.params = parse_params(op_definition(op), params);
  p.dtype = DType::f32;
  p.pattern = pattern;
  return p;
}

inline bool unfused_backend(const std::string& backend) {
  return backend.size() >= 7 && backend.compare(backend.size() - 7, 7, "unfused") == 0;
}

// One passed case taking `ms` per call.
inline CaseResult make_case(const std::string& backend, const std::string& op,
                            const std::string& params, int threads, double ms,
                            const std::string& pattern = "normal") {
  const Problem p = problem(op, params, pattern);
  CaseResult r;
  r.name = r.run_name = fmt::format("{}/{}/f32/{}/pattern={}/threads={}", op, backend,
                                    params_label(p), pattern, threads);
  r.iterations = 10;
  r.real_time = r.cpu_time = ms;
  r.time_unit = "ms";
  r.threads = threads;
  CaseDetails d;
  d.backend = backend;
  // What the kernels of these names declare, and the runner records (the names' old guess
  // gives the same for every backend these tests use).
  d.role = inferred_role(backend);
  d.family = inferred_family(backend);
  d.problem = p;
  d.threads = threads;
  d.work = unfused_backend(backend) ? op_unfused_work(p) : op_work(p);
  d.validation.disposition = Disposition::passed;
  r.ridgeline = d;
  return r;
}

// The case with each pass of its op's unfused chain timed at `ms` per call, in the order of
// op_unfused_passes, as the runner records the kernel's laps.
inline CaseResult with_pass_times(CaseResult r, const std::vector<double>& ms) {
  const std::vector<PassWork> passes = op_unfused_passes(r.ridgeline->problem);
  for (std::size_t i = 0; i < passes.size() && i < ms.size(); ++i)
    r.ridgeline->metrics.push_back(
        {pass_time_metric(i, passes[i].name), ms[i] / 1e3, "s", MetricSource::timed});
  return r;
}

// DRAM at 20 GB/s and an f32 peak of 100 GFLOP/s on 1 and 2 threads: the ridge is at
// 5 FLOP/B. No cache sizes, so analytic bytes are compared with DRAM.
inline MachineModel machine() {
  MachineModel m;
  m.fingerprint = "fusion-test";
  m.cores = 2;
  for (int t : {1, 2}) {
    ComputeCeiling c;
    c.name = "f32.avx512.fma";
    c.dtype = "f32";
    c.isa = "avx512";
    c.per_second = 100e9;
    c.threads = t;
    m.compute.push_back(c);
    MemoryCeiling bw;
    bw.level = "DRAM";
    bw.kernel = "copy";
    bw.bytes_per_s = 20e9;
    bw.threads = t;
    m.memory.push_back(bw);
  }
  return m;
}

// An L3 copy ceiling of `bytes_per_s` on 1 and 2 threads.
inline void add_l3_ceiling(MachineModel& m, double bytes_per_s) {
  for (int t : {1, 2}) {
    MemoryCeiling l3;
    l3.level = "L3";
    l3.kernel = "copy";
    l3.bytes_per_s = bytes_per_s;
    l3.threads = t;
    m.memory.push_back(l3);
  }
}

// softmax 4096 x 4096 fused in 10 ms and unfused in 40 ms on 1 thread, its passes max 4 ms,
// subtract 8, exp 15 (0.42 of the DRAM roof: the pass that loses), sum 4, divide 8; the eltwise
// chain fused and unfused for L = 1 ... 32 (fused 15 ms, 20 ms at L = 32 where it is past the
// ridge; unfused 15 ms per op); and a layernorm fused case run without its unfused twin.
inline Run fusion_run() {
  Run run;
  run.context.has_ridgeline = true;
  run.context.machine = machine();
  run.benchmarks.push_back(with_pass_times(
      make_case("cpu.unfused", "softmax", "rows=4096,cols=4096", 1, 40), {4, 8, 15, 4, 8}));
  run.benchmarks.push_back(make_case("cpu.fused", "softmax", "rows=4096,cols=4096", 1, 10));
  for (int length : {1, 2, 4, 8, 16, 32}) {
    const std::string params = fmt::format("n=33554432,L={}", length);
    run.benchmarks.push_back(make_case("cpu.unfused", "eltwise_chain", params, 1, 15.0 * length));
    run.benchmarks.push_back(
        make_case("cpu.fused", "eltwise_chain", params, 1, length == 32 ? 20 : 15));
  }
  run.benchmarks.push_back(make_case("cpu.fused", "layernorm", "rows=4096,cols=4096", 1, 12));
  return run;
}

}  // namespace ridgeline::fusion_runs
