// The worked example of docs/adding-an-op.md and docs/adding-a-kernel.md, built and run by
// this test: an op of its own (scale_example: y = factor * x, `factor` a free-form
// attribute) that names its own reference check, and a kernel, registered from this test
// binary and run through the runner like any shipped op, with no change to any module.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>

#include "ridgeline/core/error.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/vocabulary.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/kernels/validation.hpp"
#include "ridgeline/runner/runner.hpp"

namespace ridgeline {

namespace {

// --- the op (core's registry entry) -------------------------------------------------

// The factor: any finite decimal number ("0.25", "-3e2").
std::string factor_check(std::string_view value) {
  double v = 0;
  const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || ptr != value.data() + value.size() || !std::isfinite(v))
    return "a factor is a finite decimal number";
  return "";
}

double factor_of(const Problem& p) {
  return std::stod(p.params.attr("factor"));
}

std::vector<OperandSpec> scale_operands(const Problem& p) {
  const std::int64_t n = p.params.dim("n");
  return {{"x", OperandRole::input, {"n"}, n, p.dtype},
          {"y", OperandRole::output, {"n"}, n, p.dtype}};
}

// One multiply per element; x read and y written once.
WorkModel scale_work(const Problem& p) {
  const double n = static_cast<double>(p.params.dim("n"));
  WorkModel w;
  w.flops = n;
  w.bytes[MemoryLevel::main] = 2.0 * n * static_cast<double>(size_of(p.dtype));
  return w;
}

// One rounding of the product.
double scale_tolerance(const Problem&) {
  return 4 * 0x1p-24;
}

// Its reference check, below: computed with kernels' Operands, which core does not link.
Validation scale_reference(const Problem& p, Operands& ops, std::uint64_t seed);

OpDefinition scale_definition() {
  OpDefinition op;
  op.name = "scale_example";
  op.description = "y = factor * x (the worked example)";
  op.dims = {{"n", 1, std::nullopt, "elements", std::nullopt}};
  op.attrs = {{"factor", {"2"}, "the multiplier, a decimal number", &factor_check}};
  op.dtypes = {DType::f32};
  op.example = "n=64";
  op.awkward = {"n=1", "n=17/factor=-0.5"};
  op.operands = scale_operands;
  op.work = scale_work;
  op.tolerance = scale_tolerance;
  // A shipped op names its check's kind (op.reference = ReferenceKind::softmax); an op from
  // outside the modules names its own function.
  op.reference = &scale_reference;
  return op;
}

// --- its reference (kernels' validation) ---------------------------------------------

Validation scale_reference(const Problem& p, Operands& ops, std::uint64_t) {
  const auto x = ops.at("x").as<float>();
  const auto y = ops.at("y").as<float>();
  const long double factor = factor_of(p);
  Validation v;
  v.method = "direct";
  v.tolerance = scale_tolerance(p);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const long double want = factor * x[i];
    const double err = static_cast<double>(std::fabs(y[i] - want) /
                                           std::max<long double>(std::fabs(want), 1e-30L));
    if (!(err <= v.max_rel_err)) v.max_rel_err = std::isnan(err) ? INFINITY : err;
  }
  v.disposition = v.max_rel_err <= v.tolerance ? Disposition::passed : Disposition::incorrect;
  if (v.disposition != Disposition::passed) v.message = "y is not factor * x";
  return v;
}

// --- a kernel (kernels' catalog) -----------------------------------------------------

class ScaleKernel final : public Kernel {
 public:
  explicit ScaleKernel(bool off_by_one) : off_by_one_(off_by_one) {
    info_ = {"scale_example", off_by_one ? "example.wrong" : "example.loop",
             Device::cpu,     {DType::f32},
             false,           "a plain loop"};
  }
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& p, int threads) const override {
    return check_common_support(info_, p, threads);
  }
  void prepare(const Problem& p, Operands& ops, int) override {
    x_ = ops.at("x").as<float>();
    y_ = ops.at("y").as<float>();
    factor_ = static_cast<float>(factor_of(p));
  }
  void run() override {
    for (std::size_t i = 0; i < x_.size(); ++i)
      y_[i] = factor_ * x_[i] + (off_by_one_ && i == 0 ? 1.0f : 0.0f);
  }

 private:
  KernelInfo info_;
  bool off_by_one_;
  std::span<const float> x_;
  std::span<float> y_;
  float factor_ = 1;
};

void register_the_example() {
  static const bool once = [] {
    register_op(scale_definition());
    return true;
  }();
  (void)once;
}

}  // namespace

TEST(WorkedExample, AnOpAndAKernelOfATestRunThroughTheRunnerAsAShippedOneDoes) {
  register_the_example();
  KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  catalog.add([] { return std::make_unique<ScaleKernel>(false); });
  catalog.add([] { return std::make_unique<ScaleKernel>(true); });
  Problem p;
  p.op = "scale_example";
  p.params = parse_params(op_definition(p.op), "n=4099/factor=0.25");
  p.dtype = DType::f32;
  RunSettings settings;
  settings.repetitions = 2;
  settings.min_time_s = 0.001;
  settings.warmup_s = 0;
  const ridgeline::Run run = run_plan(catalog, {{"example.loop", p, 1}, {"example.wrong", p, 1}},
                                      settings, std::nullopt, {});
  const CaseResult* loop = nullptr;
  const CaseResult* wrong = nullptr;
  for (const auto& r : run.benchmarks) {
    if (r.run_type != "iteration" || !r.ridgeline) continue;
    (r.ridgeline->backend == "example.loop" ? loop : wrong) = &r;
  }
  ASSERT_TRUE(loop && wrong);
  EXPECT_EQ(loop->ridgeline->validation.disposition, Disposition::passed)
      << loop->ridgeline->validation.message;
  EXPECT_NE(loop->name.find("scale_example/example.loop/f32/n=4099/factor=0.25"), std::string::npos)
      << loop->name;
  EXPECT_GT(loop->real_time, 0);
  EXPECT_EQ(loop->ridgeline->work.flops, 4099);
  // The op's own reference catches the kernel that is off by one in one element.
  EXPECT_EQ(wrong->ridgeline->validation.disposition, Disposition::incorrect);
  EXPECT_EQ(wrong->ridgeline->validation.message, "y is not factor * x");
  // Its attribute is checked by the op: one line with the op's reason.
  EXPECT_THROW(parse_params(op_definition("scale_example"), "n=4/factor=quarter"), InputError);
  EXPECT_THROW(register_op(scale_definition()), InputError);  // a name is registered once
}

}  // namespace ridgeline
