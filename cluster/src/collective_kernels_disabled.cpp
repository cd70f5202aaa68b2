// Without MPI in the build, the collective kernels are listed and say why they cannot run.
#include <fmt/format.h>

#include <stdexcept>

#include "collective_infos.hpp"
#include "ridgeline/cluster/collective_kernels.hpp"
#include "ridgeline/cluster/rank_world.hpp"

namespace ridgeline::cluster {

namespace {

class Unavailable final : public Kernel {
 public:
  explicit Unavailable(KernelInfo info) : info_(std::move(info)) {}
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem&, int) const override {
    return Support::no(fmt::format("{} needs MPI: {}", info_.id(), mpi_off_reason()));
  }
  void prepare(const Problem&, Operands&, int) override {
    throw std::logic_error(info_.id() + " is not built: " + mpi_off_reason());
  }
  void run() override {}

 private:
  KernelInfo info_;
};

}  // namespace

void add_collective_kernels(KernelCatalog& catalog, const RankWorld*) {
  catalog.add([] { return std::make_unique<Unavailable>(allreduce_info(1)); });
  catalog.add([] { return std::make_unique<Unavailable>(tp_gemm_info(1)); });
}

}  // namespace ridgeline::cluster
