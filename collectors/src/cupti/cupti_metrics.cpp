// The CUPTI metrics Ridgeline reads and what they become. Host-side arithmetic only, built
// with or without CUDA.
#include <algorithm>

#include "ridgeline/collectors/cupti.hpp"

namespace ridgeline {

const std::vector<CuptiMetricUse>& cupti_metric_table() {
  // SIMT: thread instructions with all predicates on; an FMA is two FLOPs. Tensor path:
  // CUPTI's "math ops" per source precision (dense and sparse together), counted as FLOPs
  // (integer ones as OPs). Bytes: DRAM (HBM on these GPUs) read + written, L2 and L1
  // requested bytes.
  static const std::vector<CuptiMetricUse> table{
      {"sm__sass_thread_inst_executed_op_dfma_pred_on.sum", "flops.f64", 2, "FLOP"},
      {"sm__sass_thread_inst_executed_op_dadd_pred_on.sum", "flops.f64", 1, "FLOP"},
      {"sm__sass_thread_inst_executed_op_dmul_pred_on.sum", "flops.f64", 1, "FLOP"},
      {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "flops.f32", 2, "FLOP"},
      {"sm__sass_thread_inst_executed_op_fadd_pred_on.sum", "flops.f32", 1, "FLOP"},
      {"sm__sass_thread_inst_executed_op_fmul_pred_on.sum", "flops.f32", 1, "FLOP"},
      {"sm__sass_thread_inst_executed_op_hfma_pred_on.sum", "flops.f16", 2, "FLOP"},
      {"sm__sass_thread_inst_executed_op_hadd_pred_on.sum", "flops.f16", 1, "FLOP"},
      {"sm__sass_thread_inst_executed_op_hmul_pred_on.sum", "flops.f16", 1, "FLOP"},
      {"sm__ops_path_tensor_src_fp64.sum", "flops.tensor_f64", 1, "FLOP"},
      {"sm__ops_path_tensor_src_tf32_dst_fp32.sum", "flops.tensor_tf32", 1, "FLOP"},
      {"sm__ops_path_tensor_src_bf16_dst_fp32.sum", "flops.tensor_bf16", 1, "FLOP"},
      {"sm__ops_path_tensor_src_fp16.sum", "flops.tensor_f16", 1, "FLOP"},           // Hopper
      {"sm__ops_path_tensor_src_fp16_dst_fp32.sum", "flops.tensor_f16", 1, "FLOP"},  // Ampere
      {"sm__ops_path_tensor_src_fp16_dst_fp16.sum", "flops.tensor_f16", 1, "FLOP"},  // Ampere
      {"sm__ops_path_tensor_src_fp8.sum", "flops.tensor_fp8", 1, "FLOP"},
      {"sm__ops_path_tensor_src_int8.sum", "ops.tensor_i8", 1, "OP"},
      {"dram__bytes_read.sum", "bytes.dram", 1, "B"},
      {"dram__bytes_write.sum", "bytes.dram", 1, "B"},
      {"lts__t_bytes.sum", "bytes.L2", 1, "B"},
      {"l1tex__t_bytes.sum", "bytes.L1", 1, "B"},
      {"sm__inst_executed_pipe_tensor.sum", "gpu.tensor_instructions", 1, "warp instruction"},
      {"sm__cycles_elapsed.max", "gpu.cycles", 1, "cycle"},
      {"gpu__time_duration.sum", "gpu.time", 1e-9, "s"},
  };
  return table;
}

std::vector<std::string> cupti_metric_names(const std::vector<std::string>& extra) {
  std::vector<std::string> names;
  for (const auto& row : cupti_metric_table()) names.push_back(row.metric);
  for (const auto& e : extra)
    if (std::find(names.begin(), names.end(), e) == names.end()) names.push_back(e);
  return names;
}

std::vector<Metric> cupti_to_ridgeline(const std::map<std::string, double>& values) {
  std::map<std::string, std::pair<double, std::string>> targets;  // name -> (value, unit)
  for (const auto& row : cupti_metric_table()) {
    const auto it = values.find(row.metric);
    if (it == values.end()) continue;
    auto& t = targets[row.target];
    t.first += row.weight * it->second;
    t.second = row.unit;
  }
  std::vector<Metric> out;
  double flops = 0;
  bool any_flops = false;
  for (const auto& [name, t] : targets) {
    out.push_back({name, t.first, t.second, MetricSource::counted});
    if (name.rfind("flops.", 0) == 0) {
      flops += t.first;
      any_flops = true;
    }
  }
  if (any_flops) out.push_back({"flops", flops, "FLOP", MetricSource::counted});
  // The SM clock while the kernels ran: their elapsed cycles over their durations.
  if (targets.count("gpu.cycles") && targets.count("gpu.time") && targets["gpu.time"].first > 0)
    out.push_back({"clock.sm.counted", targets["gpu.cycles"].first / targets["gpu.time"].first,
                   "Hz", MetricSource::derived});
  for (const auto& [metric, value] : values)
    out.push_back({"cupti." + metric, value, "", MetricSource::counted});
  return out;
}

}  // namespace ridgeline
