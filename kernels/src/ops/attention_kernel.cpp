// The attention kernels as the catalog sees them (docs/attention.md): cpu.fused runs the
// flash-style tiles, cpu.unfused the eager chain, which materialises the scores and is
// refused where they would not fit in the memory available. f32, and bf16 (bf16 in memory,
// f32 arithmetic) where the CPU has AVX-512 and AVX512_BF16, or on AArch64 (the unfused
// chain's GEMMs on BFMMLA, so FEAT_BF16). cpu.avx2_fused and
// cpu.avx2_unfused are the same with AVX2 forced (f32), so that an AVX-512 machine measures
// the code an AVX2-only CPU (Zen 3) runs (x86-64 builds only; on AArch64 cpu.fused and
// cpu.unfused take NEON). cpu.fused's bf16 runs both matmuls on the AMX tiles where they are
// usable, unless RIDGELINE_ATTENTION_NO_AMX=1 (a tuning switch: the vector path).
#include "attention_kernel.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <optional>

#include "attention_ops.hpp"
#include "attention_unfused.hpp"
#include "forced_isa.hpp"
#include "ridgeline/core/ops/attention.hpp"
#include "ridgeline/core/system_memory.hpp"
#include "ridgeline/kernels/amx.hpp"

namespace ridgeline {

namespace {

ops::AttentionShape shape_of(const Problem& p) {
  const AttentionDims d = attention_dims(p);
  return {d.batch * d.heads, d.seq, d.head_dim, d.causal};
}

// This architecture's part: the bf16 fused attention on the AMX tiles (attention_amx.cpp), and
// the ISA the cpu.avx2_* kernels force (what an AVX2-only CPU runs). x86-64 builds only: on
// AArch64 there are no tiles, and cpu.fused / cpu.unfused take its one vector ISA.
#if defined(__x86_64__)
const ops::detail::AttentionAmx* attention_amx_tiles() {
  return &ops::detail::attention_amx_hardware;
}
constexpr std::optional<ops::Isa> kForcedIsa = ops::Isa::avx2;
#elif defined(__aarch64__)
const ops::detail::AttentionAmx* attention_amx_tiles() {
  return nullptr;
}
constexpr std::optional<ops::Isa> kForcedIsa = std::nullopt;
#endif

// The bf16 fused attention on the AMX tiles: where they are usable and not switched off.
bool attention_on_amx() {
  const char* off = std::getenv("RIDGELINE_ATTENTION_NO_AMX");
  if (off && *off && std::strcmp(off, "0") != 0) return false;
  return attention_amx_tiles() && amx_support().reason_for("bf16").empty();
}

// T: float or std::uint16_t (bf16 bits); a buffer of the other dtype throws.
template <typename T>
ops::AttentionArgsOf<T> args_of(const Problem& p, Operands& operands) {
  return {shape_of(p), operands.at("Q").as<T>().data(), operands.at("K").as<T>().data(),
          operands.at("V").as<T>().data(), operands.at("O").as<T>().data()};
}

class FusedAttention : public Kernel {
 public:
  explicit FusedAttention(std::optional<ops::Isa> forced = std::nullopt)
      : info_{"attention",
              ops::forced_backend(forced, "fused"),
              Device::cpu,
              ops::forced_dtypes(forced),
              true,
              fmt::format("flash-style: blocks of query rows against chunks of keys with an "
                          "online softmax, scores never stored; OpenMP over (head, block), {}",
                          ops::isa_said(forced)),
              KernelRole::fused,
              ops::forced_family(forced)},
        forced_(forced),
        isa_(forced.value_or(ops::best_isa())) {}

  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override {
    if (Support s = check_common_support(info_, problem, threads); !s) return s;
    if (Support s = ops::forced_support(forced_); !s) return s;
    if (attention_dims(problem).seq > ops::kAttentionMaxFusedSeq)
      return Support::no(
          fmt::format("{} compares key positions as floats, exact up to seq = "
                      "2^24; seq is {}",
                      info_.id(), attention_dims(problem).seq));
    if (problem.dtype == DType::bf16)
      if (std::string why = ops::attention_fused_bf16_unsupported(isa_); !why.empty())
        return Support::no(std::move(why));
    return Support::yes();
  }
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    bf16_ = problem.dtype == DType::bf16;
    if (bf16_)
      bf16_args_ = args_of<std::uint16_t>(problem, operands);
    else
      args_ = args_of<float>(problem, operands);
    threads_ = threads;
    // Not with a forced ISA: those measure what a CPU without the tiles runs.
    amx_ = bf16_ && !forced_ && attention_on_amx();
    const std::size_t floats = amx_
                                   ? attention_amx_tiles()->scratch(shape_of(problem), threads)
                                   : ops::attention_fused_scratch(isa_, shape_of(problem), threads);
    if (scratch_.size() != floats) scratch_ = OperandBuffer(DType::f32, floats);
    scratch_ptr_ = scratch_.as<float>().data();
  }
  // Both matmuls on the tiles where the AMX path ran; the softmax between them stays on the
  // vector units, whose share of the time the placement does not split out.
  ComputeUnit compute_unit(const Problem&) const override {
    return amx_ ? ComputeUnit::matrix : ComputeUnit::vector;
  }
  void run() override {
    if (amx_)
      attention_amx_tiles()->run(bf16_args_, scratch_ptr_, threads_);
    else if (bf16_)
      ops::attention_fused_isa(isa_, bf16_args_, scratch_ptr_, threads_);
    else
      ops::attention_fused_isa(isa_, args_, scratch_ptr_, threads_);
  }
  std::map<std::string, std::string> notes() const override {
    if (amx_) return {{"isa", "amx"}, {"tile", ops::kAttentionAmxTile}};
    return {{"isa", ops::to_string(isa_)}, {"tile", ops::attention_fused_tile(isa_)}};
  }

 private:
  KernelInfo info_;
  std::optional<ops::Isa> forced_;
  ops::Isa isa_;
  bool bf16_ = false;
  bool amx_ = false;  // bf16 on the AMX tiles
  ops::AttentionArgs args_;
  ops::AttentionArgsBf16 bf16_args_;
  int threads_ = 1;
  OperandBuffer scratch_;
  float* scratch_ptr_ = nullptr;
};

class UnfusedAttention : public Kernel {
 public:
  explicit UnfusedAttention(std::optional<ops::Isa> forced = std::nullopt)
      : info_{"attention",
              ops::forced_backend(forced, "unfused"),
              Device::cpu,
              ops::forced_dtypes(forced),
              true,
              fmt::format("the eager chain: packed GEMM writes the scaled scores, a mask pass "
                          "(causal), the softmax kernel writes the probabilities, packed GEMM "
                          "multiplies them by V{}; {}",
                          forced ? ""
                                 : " (bf16: every intermediate bf16, the GEMMs' f32 output "
                                   "narrowed per head)",
                          ops::isa_said(forced)),
              KernelRole::unfused,
              ops::forced_family(forced)},
        forced_(forced) {}

  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override {
    if (Support s = check_common_support(info_, problem, threads); !s) return s;
    if (Support s = ops::forced_support(forced_); !s) return s;
    if (!ops::AttentionUnfused::available())
      return Support::no(info_.id() + " runs the packed GEMM, whose micro-kernels this CPU lacks");
    if (problem.dtype == DType::bf16)
      if (std::string why = ops::AttentionUnfused::bf16_unsupported(); !why.empty())
        return Support::no(std::move(why));
    const AttentionDims d = attention_dims(problem);
    const std::size_t elem = size_of(problem.dtype);
    const auto bytes = ops::AttentionUnfused::buffer_bytes(shape_of(problem), problem.dtype);
    if (!bytes)
      return Support::no(
          fmt::format("{}: the score matrices (2 x batch*heads*seq*seq*{} bytes "
                      "at batch {}, heads {}, seq {}) overflow 64 bits",
                      info_.id(), elem, d.batch, d.heads, d.seq));
    // The operands come on top of the buffers; the runner has checked those against memory.
    const std::uint64_t available = available_memory_bytes();
    if (available > 0 && *bytes > available)
      return Support::no(fmt::format(
          "{} materialises the scores: S and P (2 x batch*heads*seq*seq*{} bytes) and the scaled "
          "Q take {} bytes ({:.1f} GiB), more than the {} bytes ({:.1f} GiB) of memory available",
          info_.id(), elem, *bytes, static_cast<double>(*bytes) / (1 << 30), available,
          static_cast<double>(available) / (1 << 30)));
    return Support::yes();
  }
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    bf16_ = problem.dtype == DType::bf16;
    if (bf16_)
      bf16_args_ = args_of<std::uint16_t>(problem, operands);
    else
      args_ = args_of<float>(problem, operands);
    chain_.prepare(shape_of(problem), problem.dtype, threads, forced_);
  }
  void run() override {
    const PassClock::Lap lap(passes_);
    if (bf16_)
      chain_.run(bf16_args_);
    else
      chain_.run(args_);
  }
  PassClock* pass_clock() override { return &passes_; }
  std::map<std::string, std::string> notes() const override {
    return {{"gemm", chain_.describe()},
            {"softmax",
             fmt::format("row-wise softmax kernel, {}", ops::to_string(chain_.softmax_isa()))},
            {"passes", "scale Q, S = Q K^T, mask (causal), softmax S -> P, O = P V"}};
  }

 private:
  KernelInfo info_;
  bool bf16_ = false;
  ops::AttentionArgs args_;
  ops::AttentionArgsBf16 bf16_args_;
  std::optional<ops::Isa> forced_;
  ops::AttentionUnfused chain_;
  PassClock passes_;  // lapped by each pass of the chain
};

}  // namespace

void add_attention_kernels(KernelCatalog& catalog) {
  catalog.add([] { return std::make_unique<FusedAttention>(); });
  catalog.add([] { return std::make_unique<UnfusedAttention>(); });
  if (kForcedIsa) {
    catalog.add([] { return std::make_unique<FusedAttention>(kForcedIsa); });
    catalog.add([] { return std::make_unique<UnfusedAttention>(kForcedIsa); });
  }
}

}  // namespace ridgeline
