#pragma once
// GPU hardware counters through CUPTI's range profiler (CUDA 13 has no event/metric API):
// FLOPs per precision from SASS instruction counts and tensor-path operation counts, bytes
// at DRAM (HBM), L2 and L1, elapsed cycles and the SM clock. Every kernel the timed loop
// launches is one range (auto range, kernel replay); the totals are their sums.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ridgeline/collectors/collector.hpp"

namespace ridgeline {

// One CUPTI metric and what it adds to: `weight * value` goes into the Ridgeline metric
// `target` ("flops.f32", "bytes.dram", ...).
struct CuptiMetricUse {
  std::string metric;  // "sm__sass_thread_inst_executed_op_ffma_pred_on.sum"
  std::string target;  // "flops.f32"
  double weight;       // 2 for an FMA instruction, 1 otherwise
  std::string unit;    // of the target
};

// The table, one row per CUPTI metric collected by default.
const std::vector<CuptiMetricUse>& cupti_metric_table();
// Its metric names, then `extra` raw metrics a user asked for (cupti:NAME).
std::vector<std::string> cupti_metric_names(const std::vector<std::string>& extra = {});

// Ridgeline metrics (source counted) from CUPTI values summed over the ranges: each target
// of the table, "flops" (all floating-point precisions, SIMT and tensor), the raw values
// as "cupti.<metric>". Targets of metrics that are absent from `values` are left out.
std::vector<Metric> cupti_to_ridgeline(const std::map<std::string, double>& values);

// Builds the configuration image for `metrics` on `chip` ("GH100") with the profiler host
// API, which needs no GPU: how many replay passes the metrics take, or why they cannot
// be collected (an unknown metric name, a chip CUPTI does not know). Rows of the table
// that the chip does not have (each generation names some tensor paths differently) are
// left out and listed in `absent`; other unknown names fail.
struct CuptiConfigCheck {
  bool ok = false;
  std::size_t passes = 0;
  std::size_t config_bytes = 0;
  std::string reason;
  std::vector<std::string> absent;
};
CuptiConfigCheck check_cupti_config(const std::string& chip,
                                    const std::vector<std::string>& metrics);

// The collector (a stub that says why without CUDA). `events`: extra CUPTI metric names.
std::unique_ptr<Collector> make_cupti_collector(const std::vector<std::string>& events);

}  // namespace ridgeline
