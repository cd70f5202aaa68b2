// Every GPU kernel and dtype computes the right product (validated against the fp64
// reference as on the CPU), times itself with CUDA events, and runs through the runner in
// a forked child. Label gpu: skips with the reason on a machine without a GPU.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "ridgeline/collectors/collector.hpp"
#include "ridgeline/collectors/nvml.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/kernels/gpu.hpp"
#include "ridgeline/kernels/patterns.hpp"
#include "ridgeline/kernels/validation.hpp"
#include "ridgeline/runner/plan.hpp"
#include "ridgeline/runner/runner.hpp"

namespace ridgeline {

namespace {

struct GpuCase {
  std::string op;
  std::string backend;
  DType dtype;
};

void PrintTo(const GpuCase& c, std::ostream* os) {
  *os << c.op << " " << c.backend << " " << to_string(c.dtype);
}

// Every GPU kernel and dtype: of the gemm op (`gemm` true), or of every other op.
std::vector<GpuCase> all_gpu_cases(bool gemm) {
  std::vector<GpuCase> cases;
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  for (const auto& k : catalog.kernels())
    if (k.device == Device::gpu && (k.op == "gemm") == gemm)
      for (DType d : k.dtypes) cases.push_back({k.op, k.backend, d});
  return cases;
}

std::string case_name(const GpuCase& c) {
  std::string name = c.op + "_" + c.backend + "_" + std::string(to_string(c.dtype));
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

#define SKIP_WITHOUT_GPU() \
  if (!gpu_probe().available()) GTEST_SKIP() << "no GPU: " << gpu_probe().reason

// One supported problem: fresh random inputs, outputs poisoned, the device's result validated
// against the op's reference, then one run timed by the device. A throw is a failure that
// names the problem, and the other problems still run.
void check_problem(Kernel& kernel, const Problem& p, const std::string& what) {
  try {
    Operands ops = allocate_operands(p);
    fill_operands(ops, "normal", 1);
    kernel.prepare(p, ops, 1);
    for (int call = 0; call < 3; ++call) kernel.run();  // past the first operand copy
    kernel.finish();
    const Validation v = validate(p, ops, 3);
    EXPECT_EQ(v.disposition, Disposition::passed) << what << ": " << v.message;
    const std::optional<double> seconds = kernel.timed_run();
    ASSERT_TRUE(seconds.has_value()) << what;
    EXPECT_GT(*seconds, 0.0) << what;
    EXPECT_LT(*seconds, 1.0) << what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << " (supported, by supports()) threw: " << e.what();
  }
}

}  // namespace

class GpuKernel : public ::testing::TestWithParam<GpuCase> {};

TEST_P(GpuKernel, ComputesTheProductAtEveryShapeItSupports) {
  SKIP_WITHOUT_GPU();
  const auto& [op, backend, dtype] = GetParam();
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  auto kernel = catalog.create(backend, op);
  int ran = 0;
  for (const Shape& shape : {Shape{256, 256, 256, 1}, Shape{512, 384, 320, 1},
                             Shape{100, 60, 36, 1}, Shape{129, 257, 65, 1}, Shape{136, 264, 72, 1}})
    for (Layout layout : {Layout::NN, Layout::NT, Layout::TN, Layout::TT}) {
      const Problem p = gemm_problem(shape, layout, dtype, "normal");
      const Support s = kernel->supports(p, 1);
      if (!s) continue;
      const std::string what = backend + " " + std::string(to_string(dtype)) + " " +
                               params_label(p) + " " + std::string(to_string(layout));
      check_problem(*kernel, p, what);
      ++ran;
    }
  EXPECT_GE(ran, 1) << backend << " supported none of the shapes";
  EXPECT_EQ(kernel->notes().count("device"), 1u);
}

INSTANTIATE_TEST_SUITE_P(AllKernels, GpuKernel, ::testing::ValuesIn(all_gpu_cases(true)),
                         [](const auto& p) { return case_name(p.param); });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GpuKernel);

// Every other op's GPU kernels (the fusion suite's): the op's awkward problems from its
// registry entry (rows of 1, lengths off every vector width, each attribute), its example,
// and one problem larger than a block's share, validated against the op's reference.
class GpuOpKernel : public ::testing::TestWithParam<GpuCase> {};

TEST_P(GpuOpKernel, ComputesTheOpOnItsAwkwardProblems) {
  SKIP_WITHOUT_GPU();
  const auto& [op, backend, dtype] = GetParam();
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  auto kernel = catalog.create(backend, op);
  ASSERT_TRUE(kernel);
  const OpDefinition& def = op_definition(op);
  std::vector<std::string> params = def.awkward;
  params.push_back(def.example);
  const std::map<std::string, std::string> larger{
      {"softmax", "rows=300,cols=5000"},
      {"layernorm", "rows=300,cols=5000"},
      {"rmsnorm", "rows=300,cols=5000"},
      {"eltwise_chain", "n=3000001,L=7"},
      // 17 x 17 tiles of 128 x 256: more than a GPU's multiprocessors, so the persistent
      // wgmma kernel's blocks each walk several tiles through one ring of stages.
      {"gemm_bias_act", "m=2056,n=4104,k=136"},
      {"attention", "batch=2,heads=3,seq=200,head_dim=128/causal=1"},
      // Two outer batches (b), each a strided batched call over the heads (h), B transposed.
      {"einsum", R"(equation="bhqd,bhkd->bhqk"/extents="b=2,h=3,q=130,k=70,d=64")"}};
  if (larger.count(op)) params.push_back(larger.at(op));
  int ran = 0;
  for (const std::string& text : params) {
    Problem p;
    p.op = op;
    p.params = parse_params(def, text);
    p.dtype = dtype;
    const Support s = kernel->supports(p, 1);
    if (!s) continue;
    const std::string what = backend + " " + std::string(to_string(dtype)) + " " + text;
    check_problem(*kernel, p, what);
    ++ran;
  }
  EXPECT_GE(ran, 1) << backend << " supported none of the problems";
  EXPECT_EQ(kernel->notes().count("rotation"), 1u);
}

INSTANTIATE_TEST_SUITE_P(AllKernels, GpuOpKernel, ::testing::ValuesIn(all_gpu_cases(false)),
                         [](const auto& p) { return case_name(p.param); });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GpuOpKernel);

// `ridgeline einsum` runs the suite at every CPU's thread count: the GPU's lowering runs on
// one host thread all the same, once, not refused as single-threaded.
TEST(GpuPlan, AGpuCaseStaysAtOneThreadWhateverThreadsSays) {
  SKIP_WITHOUT_GPU();
  PlanRequest r;
  r.suite = "einsum";
  r.threads = {2};
  r.backends = {"cuda.cublas"};
  const std::vector<CaseSpec> plan = plan_cases(KernelCatalog::with_builtin_kernels({}), r);
  ASSERT_FALSE(plan.empty());
  for (const CaseSpec& c : plan) {
    EXPECT_EQ(c.backend, "cuda.cublas");
    EXPECT_EQ(c.threads, 1) << c.name();
  }
}

TEST(GpuRunner, ACaseRunsInAForkedChildAndIsTimedByTheDevice) {
  SKIP_WITHOUT_GPU();
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  RunSettings settings;
  settings.repetitions = 2;
  settings.min_time_s = 0.01;
  settings.warmup_s = 0;
  const std::vector<CaseSpec> plan{
      {"cuda.cublas", gemm_problem(Shape{1024, 1024, 1024, 1}, Layout::NN, DType::bf16, "normal"),
       1}};
  const ridgeline::Run run = run_plan(catalog, plan, settings, std::nullopt, {});
  ASSERT_FALSE(run.benchmarks.empty());
  const CaseResult& r = run.benchmarks.front();
  EXPECT_FALSE(r.error_occurred) << r.error_message;
  ASSERT_TRUE(r.ridgeline);
  EXPECT_EQ(r.ridgeline->validation.disposition, Disposition::passed);
  EXPECT_GT(r.real_time, 0);
}

TEST(GpuNvml, PowerClocksAndEnergyAreSampledAroundDeviceWork) {
  SKIP_WITHOUT_GPU();
  NvmlCollector nvml;
  const Availability a = nvml.probe();
  ASSERT_TRUE(a.available) << a.reason;
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  auto kernel = catalog.create("cuda.cublas");
  const Problem p = gemm_problem(Shape{4096, 4096, 4096, 1}, Layout::NN, DType::bf16, "normal");
  Operands ops = allocate_operands(p);
  fill_pattern(ops.at("A"), "normal", 1);
  fill_pattern(ops.at("B"), "normal", 2);
  kernel->prepare(p, ops, 1);
  nvml.start();
  double busy = 0;
  while (busy < 0.3) busy += *kernel->timed_run();
  nvml.stop();
  std::map<std::string, Metric> m;
  for (auto& x : nvml.read()) m[x.name] = x;
  ASSERT_EQ(m.count("energy.gpu"), 1u);
  EXPECT_GT(m["energy.gpu"].value, 0);
  EXPECT_GT(m["power.gpu.avg"].value, 0);
  EXPECT_GT(m["clock.sm.avg"].value, 1e8);
  EXPECT_GE(m["nvml.samples"].value, 10);
  // Which power reading the driver gave (the instant field, or the 1 s average) and how
  // often it changed between 10 ms samples: the record of whether readings are instantaneous.
  RecordProperty("nvml.reason", a.reason);
  RecordProperty("nvml.power_instant", std::to_string(m["nvml.power_instant"].value));
  RecordProperty("nvml.power_changes_per_sample",
                 std::to_string(m["nvml.power_changes"].value / m["nvml.samples"].value));
}

}  // namespace ridgeline

namespace ridgeline {

TEST(GpuCeilings, EveryCeilingIsMeasuredAndNoneExceedsItsDesign) {
  SKIP_WITHOUT_GPU();
  std::vector<std::string> lines;
  const std::vector<GpuCeiling> ceilings = measure_gpu_ceilings(
      [](const std::string& name) {
        return name.find("cublaslt") == std::string::npos || name.find("bf16") != std::string::npos;
      },
      [&](const std::string& line) { lines.push_back(line); }, 0.02, 1);
  std::set<std::string> names;
  for (const auto& c : ceilings) {
    names.insert(c.name);
    EXPECT_GT(c.value, 0) << c.name;
    if (c.theoretical > 0) {
      EXPECT_LT(c.value, 1.05 * c.theoretical) << c.name << " " << c.method;
    }
  }
  for (const char* n :
       {"gpu.f64.fma", "gpu.f32.fma", "gpu.tf32.mma_sync", "gpu.bf16.mma_sync", "gpu.f16.mma_sync",
        "gpu.i8.mma_sync", "gpu.bf16.cublaslt", "HBM.copy", "HBM.read", "L2.read", "L1.read",
        "SMEM.read", "PCIe.h2d", "PCIe.d2h", "gpu.launch", "gpu.graph_launch"})
    EXPECT_EQ(names.count(n), 1u) << n;
  EXPECT_EQ(lines.size(), ceilings.size());
}

}  // namespace ridgeline

namespace ridgeline {

// The issue's target: CUPTI-counted FLOPs of the f32 and bf16 kernels within 1% of 2mnk.
TEST(GpuCupti, CountedFlopsMatchTheAnalyticCount) {
  SKIP_WITHOUT_GPU();
  auto cupti = find_collector("cupti")->factory({});
  const Availability a = cupti->probe();
  if (!a.available) GTEST_SKIP() << "CUPTI cannot count here: " << a.reason;
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  for (const auto& [backend, dtype] :
       std::vector<std::pair<std::string, DType>>{{"cuda.simt_vec4_128x128x8_8x8", DType::f32},
                                                  {"cuda.wmma_128x128x32", DType::bf16},
                                                  {"cuda.cublas", DType::bf16}}) {
    auto kernel = catalog.create(backend);
    const Problem p = gemm_problem(Shape{2048, 2048, 2048, 1}, Layout::NN, dtype, "normal");
    Operands ops = allocate_operands(p);
    fill_pattern(ops.at("A"), "normal", 1);
    fill_pattern(ops.at("B"), "normal", 2);
    kernel->prepare(p, ops, 1);
    kernel->run();  // the context exists before counting starts
    kernel->finish();
    cupti->start();
    kernel->run();
    kernel->finish();
    cupti->stop();
    std::map<std::string, double> m;
    for (const auto& x : cupti->read()) m[x.name] = x.value;
    const double analytic = 2.0 * 2048 * 2048 * 2048;
    ASSERT_EQ(m.count("flops"), 1u) << backend << ": nothing counted";
    EXPECT_NEAR(m["flops"] / analytic, 1.0, 0.01)
        << backend << " counted " << m["flops"] << " FLOPs (tensor bf16 " << m["flops.tensor_bf16"]
        << ", f32 " << m["flops.f32"] << "), HBM bytes " << m["bytes.dram"] << ", ranges "
        << m["cupti.ranges"];
    RecordProperty(backend + ".counted_over_analytic", std::to_string(m["flops"] / analytic));
  }
}

// A run with --collect cupti from a process that has not touched CUDA, as `ridgeline run`
// is: the CUPTI probe must leave the driver uninitialised, or every case's forked child
// fails in cudaSetDevice (seen on an H100). This process holds CUDA after the tests above,
// so the run happens in a fresh one (gtest's threadsafe death-test style re-executes us).
TEST(GpuCupti, ARunCountsInItsForkedChildren) {
  SKIP_WITHOUT_GPU();
  const Availability a = find_collector("cupti")->factory({})->probe();
  if (!a.available) GTEST_SKIP() << "CUPTI cannot count here: " << a.reason;
  auto run_and_exit = [] {
    const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
    RunSettings settings;
    settings.repetitions = 1;
    settings.min_time_s = 0.01;
    settings.warmup_s = 0;
    settings.collect = {"cupti"};
    const std::vector<CaseSpec> plan{
        {"cuda.cublas", gemm_problem(Shape{1024, 1024, 1024, 1}, Layout::NN, DType::bf16, "normal"),
         1}};
    const ridgeline::Run run = run_plan(catalog, plan, settings, std::nullopt, {});
    std::size_t counted = 0;
    for (const CaseResult& r : run.benchmarks) {
      if (r.error_occurred) std::fprintf(stderr, "case failed: %s\n", r.error_message.c_str());
      if (r.ridgeline)
        for (const Metric& m : r.ridgeline->metrics)
          if (m.name == "flops" && m.source == MetricSource::counted) ++counted;
    }
    std::fprintf(stderr, "counted flops in %zu of %zu results\n", counted, run.benchmarks.size());
    std::exit(counted > 0 && counted == run.benchmarks.size() ? 0 : 1);
  };
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(run_and_exit(), ::testing::ExitedWithCode(0), "counted flops in [1-9]");
}

}  // namespace ridgeline
