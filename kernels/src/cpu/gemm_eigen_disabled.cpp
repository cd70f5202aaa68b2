// Built when RIDGELINE_WITH_EIGEN=OFF: the rung exists and says why it cannot run.
#include "ridgeline/kernels/gemm_kernels.hpp"

namespace ridgeline {

namespace {
class EigenDisabled : public Kernel {
 public:
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem&, int) const override {
    return Support::no("built without Eigen; reconfigure with -DRIDGELINE_WITH_EIGEN=ON");
  }
  void prepare(const Problem&, Operands&, int) override {}
  void run() override {}

 private:
  KernelInfo info_{"gemm", "cpu.eigen",        Device::cpu,       {DType::f32, DType::f64},
                   true,   "Eigen (disabled)", KernelRole::vendor};
};
}  // namespace

std::unique_ptr<Kernel> make_eigen_gemm() {
  return std::make_unique<EigenDisabled>();
}

}  // namespace ridgeline
