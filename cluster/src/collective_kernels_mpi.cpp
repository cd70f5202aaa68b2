#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>

#include "collective_infos.hpp"
#include "ridgeline/cluster/collective_kernels.hpp"
#include "ridgeline/cluster/rank_world.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"
#include "ridgeline/kernels/pass_clock.hpp"

namespace ridgeline::cluster {

namespace {

MPI_Datatype mpi_type(DType dtype) {
  return dtype == DType::f64 ? MPI_DOUBLE : MPI_FLOAT;
}

// Where the job's ranks are (the scope its network bytes are placed in) and which MPI.
std::map<std::string, std::string> job_notes(const RankWorld& world) {
  const RankPlace& p = world.place();
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(version, &length);
  std::string library(version, static_cast<std::size_t>(std::max(0, length)));
  library = library.substr(0, library.find_first_of(",\n"));
  return {
      {"network_scope", p.nodes > 1 ? "inter-node" : "intra-node"},
      {"ranks", fmt::format("{} ranks on {} host{}", p.ranks, p.nodes, p.nodes == 1 ? "" : "s")},
      {"mpi", library}};
}

// Supported in a job of the problem's ranks, with counts MPI's int can hold.
Support job_support(const KernelInfo& info, const RankWorld* world, const Problem& problem,
                    int threads, std::int64_t elements) {
  if (Support s = check_common_support(info, problem, threads); !s) return s;
  if (!world)
    return Support::no(fmt::format(
        "{} runs among the ranks of an MPI job: start it under mpirun -np N (this process is "
        "not part of one)",
        info.id()));
  const std::int64_t ranks = problem.params.dim("ranks");
  if (ranks != world->place().ranks)
    return Support::no(fmt::format("ranks={}, but this job has {} rank{}", ranks,
                                   world->place().ranks, world->place().ranks == 1 ? "" : "s"));
  if (elements > INT_MAX)
    return Support::no(fmt::format("{} elements: MPI counts them in an int", elements));
  return Support::yes();
}

// A count of calls taking about `min_time_s` on the slowest rank, the same at every rank:
// one call to warm (first touches, MPI's connections), then three timed, their mean's maximum
// over the ranks.
std::int64_t agreed_calls(Kernel& kernel, double min_time_s) {
  kernel.run();
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 3; ++i) kernel.run();
  const double mine =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / 3;
  double slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return static_cast<std::int64_t>(
      std::clamp(std::ceil(min_time_s / std::max(slowest, 1e-9)), 1.0, 1e7));
}

// Whether every rank says `mine` (Kernel::all_ranks).
bool every_rank(bool mine) {
  int in = mine ? 1 : 0, all = 0;
  MPI_Allreduce(&in, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

class Allreduce final : public Kernel {
 public:
  explicit Allreduce(const RankWorld* world)
      : info_(allreduce_info(world ? world->place().ranks : 1)), world_(world) {}
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override {
    return job_support(info_, world_, problem, threads, problem.params.dim("count"));
  }
  void prepare(const Problem& problem, Operands& operands, int) override {
    x_ = operands.at("x").raw();
    y_ = operands.at("y").raw();
    count_ = static_cast<int>(problem.params.dim("count"));
    type_ = mpi_type(problem.dtype);
  }
  void run() override { MPI_Allreduce(x_, y_, count_, type_, MPI_SUM, MPI_COMM_WORLD); }
  std::optional<std::int64_t> fixed_iterations(double min_time_s) override {
    return agreed_calls(*this, min_time_s);
  }
  bool all_ranks(bool mine) override { return every_rank(mine); }
  std::map<std::string, std::string> notes() const override { return job_notes(*world_); }

 private:
  KernelInfo info_;
  const RankWorld* world_;
  void* x_ = nullptr;
  void* y_ = nullptr;
  int count_ = 0;
  MPI_Datatype type_ = MPI_FLOAT;
};

// The shard's product, then the sum of every rank's partial C, each lapped as its own pass.
class TpGemm final : public Kernel {
 public:
  explicit TpGemm(const RankWorld* world)
      : info_(tp_gemm_info(world ? world->place().ranks : 1)), world_(world) {}
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override {
    const std::int64_t m = problem.params.dim("m"), n = problem.params.dim("n");
    if (Support s = job_support(info_, world_, problem, threads, m * n); !s) return s;
    const std::optional<PackedIsa> isa = best_packed_isa();
    if (!isa)
      return Support::no("no packed GEMM runs on this CPU (it needs AVX2 and FMA, or NEON)");
    return make_packed_gemm(*isa, threads > 1)->supports(shard(problem), threads);
  }
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    gemm_ = make_packed_gemm(*best_packed_isa(), threads > 1);
    gemm_->prepare(shard(problem), operands, threads);  // A, B and C are the shard's operands
    c_ = operands.at("C").raw();
    count_ = static_cast<int>(problem.params.dim("m") * problem.params.dim("n"));
    type_ = mpi_type(problem.dtype);
  }
  void run() override {
    PassClock::Lap lap(clock_);
    gemm_->run();
    pass_done();
    MPI_Allreduce(MPI_IN_PLACE, c_, count_, type_, MPI_SUM, MPI_COMM_WORLD);
    pass_done();
  }
  std::optional<std::int64_t> fixed_iterations(double min_time_s) override {
    return agreed_calls(*this, min_time_s);
  }
  bool all_ranks(bool mine) override { return every_rank(mine); }
  PassClock* pass_clock() override { return &clock_; }
  std::vector<PassWork> passes(const Problem& problem) const override {
    Problem sum;
    sum.op = "allreduce";
    sum.params = parse_params(
        op_definition("allreduce"),
        fmt::format("count={},ranks={}", problem.params.dim("m") * problem.params.dim("n"),
                    problem.params.dim("ranks")));
    sum.dtype = problem.dtype;
    return {{"gemm", op_work(shard(problem))}, {"allreduce", op_work(sum)}};
  }
  std::map<std::string, std::string> notes() const override {
    auto out = job_notes(*world_);
    if (gemm_)
      for (auto& [k, v] : gemm_->notes()) out.emplace("gemm." + k, v);
    return out;
  }

 private:
  static Problem shard(const Problem& p) {
    const std::int64_t ranks = p.params.dim("ranks");
    return gemm_problem({p.params.dim("m"), p.params.dim("n"), p.params.dim("k") / ranks, 1},
                        Layout::NN, p.dtype, p.pattern);
  }
  KernelInfo info_;
  const RankWorld* world_;
  std::unique_ptr<Kernel> gemm_;
  PassClock clock_;
  void* c_ = nullptr;
  int count_ = 0;
  MPI_Datatype type_ = MPI_FLOAT;
};

}  // namespace

void add_collective_kernels(KernelCatalog& catalog, const RankWorld* world) {
  catalog.add([world] { return std::make_unique<Allreduce>(world); });
  catalog.add([world] { return std::make_unique<TpGemm>(world); });
}

}  // namespace ridgeline::cluster
