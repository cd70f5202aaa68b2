#pragma once
// The base of every oneDNN kernel of the catalog (backend vendor.onednn), whichever op: the
// library's presence, bf16 only from avx512_core on, the prepared primitive's run and its
// implementation in the notes. Each op is one small class (onednn_kernels.cpp, and einsum's
// in einsum/einsum_onednn.cpp). Built with or without oneDNN (onednn_ops.hpp).
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "onednn_ops.hpp"
#include "ridgeline/kernels/cpu_features.hpp"
#include "ridgeline/kernels/kernel.hpp"

namespace ridgeline {

class OnednnKernel : public Kernel {
 public:
  OnednnKernel(const char* op, std::string description,
               std::vector<DType> dtypes = {DType::f32, DType::bf16},
               const char* backend = "vendor.onednn",
               std::optional<LoweringKind> lowering = std::nullopt)
      : info_{op,
              backend,
              Device::cpu,
              std::move(dtypes),
              true,
              std::move(description),
              KernelRole::vendor,
              "",
              0,
              lowering} {}

  const KernelInfo& info() const override { return info_; }

  Support supports(const Problem& problem, int threads) const override {
    if (std::string why = ops::onednn_unavailable_reason(); !why.empty()) return Support::no(why);
    // Not in this process at all, whatever the problem: said first.
    if (std::string why = ops::onednn_isa_refusal(capped_isa()); !why.empty())
      return Support::no(info_.id() + ": " + why);
    if (Support s = check_common_support(info_, problem, threads); !s) return s;
    if (Support s = supports_problem(problem); !s) return s;
    // oneDNN 2.6 runs bf16 from avx512_core on (emulated without AVX512_BF16); on older
    // ISAs its primitive descriptors refuse, which prepare() would report less plainly.
    if (problem.dtype == DType::bf16 && !cpu_features().has_avx512())
      return Support::no(
          "oneDNN 2.6 runs bf16 only on AVX-512 (avx512_core), which this CPU lacks");
    if (problem.dtype == DType::i8 && !cpu_features().has_avx512())
      return Support::no(
          "oneDNN 2.6 runs an int8 matmul only on AVX-512 (avx512_core), which this CPU lacks");
    return Support::yes();
  }

  void run() override { run_(); }

  // oneDNN names the engine in its implementation ("brg:avx512_core_amx_bf16"); the chain of
  // an op whose primitives differ runs on AMX where its matmuls do.
  ComputeUnit compute_unit(const Problem&) const override {
    return implementation_.find("amx") != std::string::npos ? ComputeUnit::matrix
                                                            : ComputeUnit::vector;
  }

  std::map<std::string, std::string> notes() const override {
    std::map<std::string, std::string> n{{"library", ops::onednn_version()}};
    if (!implementation_.empty()) n["implementation"] = implementation_;
    return n;
  }

 protected:
  virtual Support supports_problem(const Problem&) const { return Support::yes(); }
  // Whether this kernel runs oneDNN with its ISA capped below AMX (onednn_ops.hpp).
  virtual bool capped_isa() const { return false; }

  // create() refuses only what supports() let through by mistake (or oneDNN's own limits);
  // the case then fails with oneDNN's reason.
  template <class Op>
  Op& take(std::unique_ptr<Op>& slot, ops::Prepared<Op> prepared) {
    if (!prepared) throw std::runtime_error(prepared.support.reason);
    slot = std::move(prepared.op);
    implementation_ = slot->implementation();
    return *slot;
  }

  std::function<void()> run_;

 private:
  KernelInfo info_;
  std::string implementation_;
};

}  // namespace ridgeline
