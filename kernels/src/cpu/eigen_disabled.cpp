// Built when RIDGELINE_WITH_EIGEN=OFF: the Eigen kernels (the GEMM rung, the einsum vendor
// lowering) exist and say why they cannot run.
#include "../einsum/einsum_kernels.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"

namespace ridgeline {

namespace {
class EigenDisabled : public Kernel {
 public:
  EigenDisabled(const char* op, const char* backend,
                std::optional<LoweringKind> lowering = std::nullopt)
      : info_{op,
              backend,
              Device::cpu,
              {DType::f32, DType::f64},
              true,
              "Eigen (disabled)",
              KernelRole::vendor,
              "",
              0,
              lowering} {}
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem&, int) const override {
    return Support::no("built without Eigen; reconfigure with -DRIDGELINE_WITH_EIGEN=ON");
  }
  void prepare(const Problem&, Operands&, int) override {}
  void run() override {}

 private:
  KernelInfo info_;
};
}  // namespace

std::unique_ptr<Kernel> make_eigen_gemm() {
  return std::make_unique<EigenDisabled>("gemm", "cpu.eigen");
}

std::unique_ptr<Kernel> make_einsum_eigen() {
  return std::make_unique<EigenDisabled>("einsum", "cpu.eigen", LoweringKind::strided);
}

std::unique_ptr<Kernel> make_einsum_eigen_ttgt() {
  return std::make_unique<EigenDisabled>("einsum", "cpu.eigen.ttgt", LoweringKind::ttgt);
}

}  // namespace ridgeline
