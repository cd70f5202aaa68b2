#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/core/dtype.hpp"
#include "ridgeline/core/problem.hpp"
#include "ridgeline/core/vocabulary.hpp"
#include "ridgeline/core/work_model.hpp"
#include "ridgeline/kernels/operand_buffer.hpp"
#include "ridgeline/kernels/pass_clock.hpp"

namespace ridgeline {

struct KernelInfo {
  std::string op;       // "gemm"
  std::string backend;  // "cpu.packed_avx512", "blas.openblas"
  Device device = Device::cpu;
  std::vector<DType> dtypes;
  bool threaded = false;  // honours a thread count above 1
  std::string description;
  KernelRole role = KernelRole::ladder;  // core/vocabulary.hpp
  // A fused/unfused pair's stem ("cpu.avx2"), "blas", or "" (vocabulary.hpp); its default
  // initialiser lets kernels of no family leave it out without -Wmissing-field-initializers.
  std::string family{};
  // A collective kernel (allreduce, tp_gemm): the job's ranks it runs among, every rank
  // running the case at the same time, in its own process (a forked child cannot call MPI),
  // with a count of calls they agree on (Kernel::fixed_iterations); 0 for every other kernel.
  int ranks = 0;
  // An einsum kernel's lowering (vocabulary.hpp: the loop nest, TTGT, the strided view,
  // GETT), recorded with each of its cases; none for other ops' kernels.
  std::optional<LoweringKind> lowering{};
  std::string id() const { return op + "." + backend; }
};

// Either supported, or the reason it is not.
struct Support {
  bool ok = true;
  std::string reason;
  static Support yes() { return {}; }
  static Support no(std::string why) { return {false, std::move(why)}; }
  explicit operator bool() const { return ok; }
};

// The kernel contract (docs/kernel-contract.md). The runner calls supports(), then
// prepare() once with the operands and the thread count, then run() many times; only
// run() is timed. run() computes the op's outputs from its inputs, overwriting them.
class Kernel {
 public:
  virtual ~Kernel() = default;
  virtual const KernelInfo& info() const = 0;
  virtual Support supports(const Problem& problem, int threads) const = 0;
  // The work one run() does, which places its point: the op's model; for an unfused kernel
  // the sum of its passes (op_unfused_work), since it moves every intermediate through memory.
  virtual WorkModel work(const Problem& problem) const { return role_work(problem, info().role); }
  virtual void prepare(const Problem& problem, Operands& operands, int threads) = 0;
  virtual void run() = 0;
  // Device kernels run asynchronously: finish() waits for the device and copies C back
  // into the operands given to prepare(), so validation reads what the device computed.
  virtual void finish() {}
  // One run() timed by the device itself (CUDA events around it), in seconds; nullopt for
  // kernels the host clock times.
  virtual std::optional<double> timed_run() { return std::nullopt; }
  // A count of calls per repetition that every rank of a collective kernel agrees on,
  // sized to take about `min_time_s` (each rank calls it at the same point); nullopt for
  // kernels the harness times by the clock alone.
  virtual std::optional<std::int64_t> fixed_iterations(double /*min_time_s*/) {
    return std::nullopt;
  }
  // Whether every rank of a collective kernel's job says `mine` (each rank calls it at the
  // same point: after prepare(), after validation), so that the ranks time a case all
  // together or not at all; a rank that timed it alone would wait for the others' calls
  // forever. Every other kernel is its own job: `mine`.
  virtual bool all_ranks(bool mine) { return mine; }
  // Facts about the code that ran (micro-kernel, blocking, library path), set by prepare().
  virtual std::map<std::string, std::string> notes() const { return {}; }
  // An einsum kernel's steps for the problem it prepared, in the order they run, each with
  // its kind, the note that says how it ran and the pass that laps it (vocabulary.hpp:
  // LoweringStep); none for other kernels. Recorded with the notes.
  virtual std::vector<LoweringStep> lowering_steps() const { return {}; }
  // The unit the kernel prepared for `problem` runs its arithmetic on (vocabulary.hpp), which
  // places it under that unit's roof: default_compute_unit's unless it says otherwise (the
  // AMX rung; a library whose chosen implementation names the engine).
  virtual ComputeUnit compute_unit(const Problem& problem) const {
    return default_compute_unit(info().device, problem.op, problem.dtype);
  }
  // A chain's clock, lapped by each of its passes in the order of passes(); nullptr for a
  // kernel that does not lap its passes.
  virtual PassClock* pass_clock() { return nullptr; }
  // The passes pass_clock() laps, in order, with each one's work: the op's unfused chain
  // (op_unfused_passes) for an unfused kernel; a lowering's own steps (einsum's
  // transpose-GEMM-transpose) where it has them.
  virtual std::vector<PassWork> passes(const Problem& problem) const {
    return op_unfused_passes(problem);
  }
};

// Checks shared by the CPU kernels: dtype listed in info(), batch 1, threads allowed.
Support check_common_support(const KernelInfo& info, const Problem& problem, int threads);

}  // namespace ridgeline
