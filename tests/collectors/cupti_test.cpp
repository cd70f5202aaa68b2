// CUPTI: the metric table's arithmetic, the metric names checked against CUPTI's own
// tables for Hopper and Ampere (the profiler host API needs no GPU), and the reason the
// collector gives on a machine without one.
#include "ridgeline/collectors/cupti.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

namespace ridgeline {

namespace {
std::map<std::string, Metric> by_name(const std::vector<Metric>& metrics) {
  std::map<std::string, Metric> out;
  for (const auto& m : metrics) out[m.name] = m;
  return out;
}
}  // namespace

TEST(CuptiMetrics, FmaCountsTwiceTensorOpsOnceAndDramIsReadPlusWrite) {
  const auto m = by_name(cupti_to_ridgeline({
      {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum", 10},
      {"sm__sass_thread_inst_executed_op_fadd_pred_on.sum", 3},
      {"sm__sass_thread_inst_executed_op_dfma_pred_on.sum", 4},
      {"sm__ops_path_tensor_src_bf16_dst_fp32.sum", 1000},
      {"sm__ops_path_tensor_src_int8.sum", 77},
      {"dram__bytes_read.sum", 100},
      {"dram__bytes_write.sum", 50},
      {"lts__t_bytes.sum", 400},
      {"l1tex__t_bytes.sum", 900},
      {"sm__cycles_elapsed.max", 3.96e6},
      {"gpu__time_duration.sum", 2e6},  // ns
  }));
  EXPECT_DOUBLE_EQ(m.at("flops.f32").value, 23);
  EXPECT_DOUBLE_EQ(m.at("flops.f64").value, 8);
  EXPECT_DOUBLE_EQ(m.at("flops.tensor_bf16").value, 1000);
  EXPECT_DOUBLE_EQ(m.at("flops").value, 1031);  // integer ops are not FLOPs
  EXPECT_DOUBLE_EQ(m.at("ops.tensor_i8").value, 77);
  EXPECT_DOUBLE_EQ(m.at("bytes.dram").value, 150);
  EXPECT_DOUBLE_EQ(m.at("bytes.L2").value, 400);
  EXPECT_DOUBLE_EQ(m.at("bytes.L1").value, 900);
  EXPECT_DOUBLE_EQ(m.at("cupti.lts__t_bytes.sum").value, 400);
  EXPECT_DOUBLE_EQ(m.at("gpu.time").value, 2e-3);
  EXPECT_DOUBLE_EQ(m.at("clock.sm.counted").value, 1.98e9);
  EXPECT_EQ(m.at("clock.sm.counted").source, MetricSource::derived);
  for (const auto& [name, metric] : m) {
    if (name != "clock.sm.counted") {
      EXPECT_EQ(metric.source, MetricSource::counted) << name;
    }
  }
  EXPECT_EQ(m.count("flops.f16"), 0u);  // absent metrics add no target
  EXPECT_TRUE(cupti_to_ridgeline({}).empty());
}

TEST(CuptiMetrics, ExtraMetricsFollowTheTableOnce) {
  const auto names = cupti_metric_names({"sm__warps_active.avg", "lts__t_bytes.sum"});
  EXPECT_EQ(names.size(), cupti_metric_table().size() + 1);
  EXPECT_EQ(names.back(), "sm__warps_active.avg");
}

class CuptiChips : public ::testing::TestWithParam<const char*> {};

TEST_P(CuptiChips, EveryMetricOfTheTableExistsOnTheChip) {
  const CuptiConfigCheck c = check_cupti_config(GetParam(), cupti_metric_names());
  if (!c.ok && c.reason.find("built without CUDA") != std::string::npos) GTEST_SKIP() << c.reason;
  ASSERT_TRUE(c.ok) << c.reason;
  EXPECT_GT(c.passes, 0u);
  EXPECT_GT(c.config_bytes, 0u);
  // Each generation has one way of naming the f16 tensor path; FP8 is Hopper's.
  const bool hopper = std::string(GetParam()) == "GH100";
  const auto absent = [&](const std::string& m) {
    return std::find(c.absent.begin(), c.absent.end(), m) != c.absent.end();
  };
  EXPECT_EQ(absent("sm__ops_path_tensor_src_fp16.sum"), !hopper);
  EXPECT_EQ(absent("sm__ops_path_tensor_src_fp16_dst_fp32.sum"), hopper);
  EXPECT_EQ(absent("sm__ops_path_tensor_src_fp8.sum"), !hopper);
  EXPECT_FALSE(absent("dram__bytes_read.sum"));
  EXPECT_FALSE(absent("sm__sass_thread_inst_executed_op_ffma_pred_on.sum"));
}

INSTANTIATE_TEST_SUITE_P(HopperAndAmpere, CuptiChips, ::testing::Values("GH100", "GA100"));

TEST(CuptiConfig, AnUnknownMetricOrChipIsAReason) {
  const CuptiConfigCheck bad = check_cupti_config("GH100", {"dram__bytes_nowhere.sum"});
  EXPECT_FALSE(bad.ok);
  EXPECT_FALSE(bad.reason.empty());
  const CuptiConfigCheck chip = check_cupti_config("XX999", cupti_metric_names());
  EXPECT_FALSE(chip.ok);
  EXPECT_FALSE(chip.reason.empty());
}

TEST(CuptiCollector, OnlyWhenNamedBecauseReplaySlowsTheTimedLoop) {
  for (const auto& c : make_collectors({})) EXPECT_NE(c->name(), "cupti");
  bool named = false;
  for (const auto& c : make_collectors({"cupti"})) named = named || c->name() == "cupti";
  EXPECT_TRUE(named);
}

TEST(CuptiCollector, WithoutAGpuItSaysWhyAndReadsNothing) {
  const CollectorDescriptor* d = find_collector("cupti");
  ASSERT_NE(d, nullptr);
  auto c = d->factory({});
  const Availability a = c->probe();
  if (a.available) GTEST_SKIP() << "CUPTI works here: " << a.reason;
  EXPECT_FALSE(a.reason.empty());
  EXPECT_TRUE(c->read().empty());
}

}  // namespace ridgeline
