#pragma once
// How a foreign Google Benchmark result's rate counters and times become work per call and
// rates per second of wall time.
//
// Google Benchmark divides a rate counter (kIsRate: `flops`, `bytes_per_second`) by the
// benchmark's time: CPU time summed over its threads, unless the benchmark uses real or
// manual time (its name then has a `real_time` or `manual_time` component). What that time
// is changed with the version (context.library_version, written from 1.9.0 on):
//   before 1.9  real time is the wall time of a repetition, reported per iteration of all
//               threads together; rates over the CPU time of all threads or the wall time;
//   1.9.0-1.9.4 real time summed over the threads, reported per iteration of one thread;
//               rates over that sum (CPU or real);
//   1.9.5 on    the same times; rates over the sum divided by the threads.
// With R and C the reported real and CPU time per iteration and T the threads, one
// iteration of one thread is a call: a rate counter c gives c * per_call per call and
// c * per_wall_second per second of wall time of the whole benchmark.
#include <string>

#include "ridgeline/core/run.hpp"

namespace ridgeline::detail {

struct ForeignTimeBase {
  double per_call = 0;
  double per_wall_second = 0;
  double seconds_per_call = 0;  // one iteration of one thread
  std::string note;             // the convention used, in words
  std::string problem;          // non-empty when the times cannot be used: why
};

ForeignTimeBase foreign_time_base(const RunContext& context, const CaseResult& result);

double to_seconds(double value, const std::string& unit);

}  // namespace ridgeline::detail
