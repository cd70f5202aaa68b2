#pragma once
// The BLIS-style packed GEMM driver: blocks of B (kc x nc) and A (mc x kc) are packed into
// contiguous, zero-padded micro-panels; a register-blocked micro-kernel for the CPU's ISA
// multiplies them. Loop order jc -> pc -> ic -> jr -> ir as in BLIS; OpenMP over blocks of
// A, each B panel packed by the first thread to need it, and no barrier. It serves the gemm
// rung (gemm_packed.cpp) and, with an epilogue, the fused gemm_bias_act (gemm_bias_act.cpp):
// the tiles of the last kc block are stored through the micro-kernel's epilogue variant
// (microkernel.hpp). In is A's, B's and the bias's element, Out C's: float, double, or bf16
// bits (std::uint16_t) into f32, packed in pairs of k (kGroup, microkernel.hpp); the blocking
// loops are the same.
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <vector>

#include "gather_layout.hpp"
#include "microkernel.hpp"
#include "packed_blocking.hpp"
#include "simple_gemm_kernel.hpp"

namespace ridgeline::packed {

template <typename T>
struct AlignedArray {
  std::unique_ptr<T[], void (*)(T*)> data{nullptr, [](T* p) { std::free(p); }};
  void resize(std::size_t n) {
    data.reset(static_cast<T*>(std::aligned_alloc(64, (n * sizeof(T) + 63) / 64 * 64)));
  }
};

// C := act(A * B + bias): bias has n entries, broadcast over the rows of C.
template <typename In>
struct Epilogue {
  const In* bias;
  ops::Activation act;
};

// The blocking for `uk`: a tile engine's kernel keeps its panels nearer than the vector
// kernels do (packed_blocking.hpp).
template <typename In, typename Out>
Blocking blocking_for(const MicroKernel<In, Out>& uk, const CacheSizes& caches) {
  if (uk.tile_engine) return derive_tile_blocking(caches, uk.mr, uk.nr, sizeof(In), uk.k_block);
  return derive_blocking(caches, uk.mr, uk.nr, sizeof(In));
}

template <typename In, typename Out = In>
class PackedGemm {
 public:
  // With an epilogue, `uk` must have one (uk.epilogue != nullptr). With a gather layout
  // (GETT, gather_layout.hpp; no epilogue), g's leading dimensions and transposes are unused
  // and the layout, which must outlive the GEMM, says where each element lies.
  void prepare(const cpu::GemmArgs<In, Out>& g, const MicroKernel<In, Out>& uk,
               const Blocking& blocking, int threads,
               std::optional<Epilogue<In>> epilogue = std::nullopt,
               const GatherLayout* gather = nullptr);
  void run();
  // Other operands of the prepared shape (and leading dimensions), so a chain that runs one
  // GEMM per head prepares it once (attention_unfused.cpp).
  void bind(const In* a, const In* b, Out* c) {
    g_.a = a;
    g_.b = b;
    g_.c = c;
  }
  const Blocking& blocking() const { return b_; }

 private:
  void body(int tid);  // the micro-kernel's begin, walk, end
  void walk(int tid);  // the loops over blocks and panels
  // B's panel q of the kc x nc block at (pc, jc).
  void pack_b_panel(std::int64_t jc, std::int64_t nc, std::int64_t pc, std::int64_t kc,
                    std::int64_t q, In* b_pack);
  // mr rows of op(A) from row i0, kc steps from pc, packed MR wide.
  void pack_a_panel(std::int64_t i0, std::int64_t pc, std::int64_t mr, std::int64_t kc, In* out);
  // Under a gather layout: one panel, by the plan's runs of steps (strided packing) where
  // its lanes run at one stride, else gathered.
  void pack_gathered(const In* src, const std::int64_t* lanes_at, std::int64_t lane_stride,
                     const std::vector<StepRun>& runs, const std::int64_t* steps_at,
                     std::int64_t lanes, std::int64_t kc, int width, In* out);
  // Where the tile at (i0, j0) is stored straight to C: its first element and row stride;
  // false where it goes through the scratch tile (a gathered C whose rows are irregular or
  // whose columns are not contiguous).
  bool direct_tile(std::int64_t i0, std::int64_t j0, Out*& c, std::int64_t& ldc) const;
  // Where B's panels of padded depth kp start, one from the next: the panel and its tail.
  std::int64_t b_stride(std::int64_t kp) const { return kp * uk_.nr + uk_.b_tail; }
  Out& c_at(std::int64_t i, std::int64_t j) const {
    return gather_ ? g_.c[gather_->c_m[i] + gather_->c_n[j]] : g_.c[i * g_.n + j];
  }
  // A tile of fewer than NR columns (or fewer than MR rows under the epilogue, or one C
  // cannot take directly), through the thread's scratch tile; one of fewer rows only goes
  // to the micro-kernel's `rows`.
  void edge_tile(std::int64_t kc, const In* a, const In* b, std::int64_t i0, std::int64_t mr,
                 std::int64_t nr, std::int64_t j0, bool accumulate, bool last, int tid);

  cpu::GemmArgs<In, Out> g_{};
  MicroKernel<In, Out> uk_{};
  Blocking b_;
  int threads_ = 1;
  std::int64_t m_panels_ = 0, m_blocks_ = 0;  // MR-row panels of A, and the blocks they form
  std::optional<Epilogue<In>> epilogue_;
  const GatherLayout* gather_ = nullptr;
  GatherPlan plan_;
  AlignedArray<In> b_pack_[2];
  int b_buffers_ = 1;
  // Each kc x nc block of B is one epoch, counted across runs. A panel's state in its buffer:
  // 2 * epoch once a thread has claimed it, 2 * epoch + 1 once packed. block_done_[b]: the
  // last epoch whose products block b of A has finished.
  std::unique_ptr<std::atomic<std::int64_t>[]> b_state_[2], block_done_;
  std::int64_t epoch_ = 1, steps_ = 0;
  std::vector<AlignedArray<In>> a_pack_;
  std::vector<AlignedArray<Out>> tiles_;
  std::vector<AlignedArray<In>> bias_tiles_;  // epilogue: NR bias entries, zero-padded
};

extern template class PackedGemm<float>;
extern template class PackedGemm<double>;
extern template class PackedGemm<std::uint16_t, float>;
extern template class PackedGemm<std::int8_t, std::int32_t>;

}  // namespace ridgeline::packed
