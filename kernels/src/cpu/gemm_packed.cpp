// Rung 4 (and 5 with OpenMP): BLIS-style GEMM. Blocks of B (kc x nc) and A (mc x kc) are
// packed into contiguous, zero-padded micro-panels; a register-blocked micro-kernel for
// the CPU's ISA multiplies them. Loop order jc -> pc -> ic -> jr -> ir as in BLIS.
#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "microkernel.hpp"
#include "packed_blocking.hpp"
#include "ridgeline/kernels/cpu_features.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"
#include "simple_gemm_kernel.hpp"

namespace ridgeline {

namespace {

using packed::Blocking;
using packed::MicroKernel;

// Packs rows [i0, i0+mr) x columns [pc, pc+kc) of op(A) as one micro-panel a[p*MR + i].
template <typename T>
void pack_a_panel(const cpu::GemmArgs<T>& g, std::int64_t i0, std::int64_t mr, std::int64_t pc,
                  std::int64_t kc, int MR, T* __restrict out) {
  if (mr < MR) std::memset(out, 0, sizeof(T) * static_cast<std::size_t>(kc * MR));
  if (g.ta) {
    for (std::int64_t p = 0; p < kc; ++p) {
      const T* src = g.a + (pc + p) * g.lda + i0;
      for (std::int64_t i = 0; i < mr; ++i) out[p * MR + i] = src[i];
    }
  } else {
    for (std::int64_t i = 0; i < mr; ++i) {
      const T* src = g.a + (i0 + i) * g.lda + pc;
      for (std::int64_t p = 0; p < kc; ++p) out[p * MR + i] = src[p];
    }
  }
}

// Packs rows [pc, pc+kc) x columns [j0, j0+nr) of op(B) as one micro-panel b[p*NR + j].
template <typename T>
void pack_b_panel(const cpu::GemmArgs<T>& g, std::int64_t pc, std::int64_t kc, std::int64_t j0,
                  std::int64_t nr, int NR, T* __restrict out) {
  if (nr < NR) std::memset(out, 0, sizeof(T) * static_cast<std::size_t>(kc * NR));
  if (g.tb) {
    for (std::int64_t j = 0; j < nr; ++j) {
      const T* src = g.b + (j0 + j) * g.ldb + pc;
      for (std::int64_t p = 0; p < kc; ++p) out[p * NR + j] = src[p];
    }
  } else {
    for (std::int64_t p = 0; p < kc; ++p) {
      const T* src = g.b + (pc + p) * g.ldb + j0;
      for (std::int64_t j = 0; j < nr; ++j) out[p * NR + j] = src[j];
    }
  }
}

template <typename T>
struct AlignedArray {
  std::unique_ptr<T[], void (*)(T*)> data{nullptr, [](T* p) { std::free(p); }};
  void resize(std::size_t n) {
    data.reset(static_cast<T*>(std::aligned_alloc(64, (n * sizeof(T) + 63) / 64 * 64)));
  }
};

template <typename T>
class PackedGemm {
 public:
  void prepare(const cpu::GemmArgs<T>& g, const MicroKernel<T>& uk, const Blocking& blocking,
               int threads) {
    g_ = g;
    uk_ = uk;
    threads_ = threads;
    b_ = blocking;
    // With threads, cut m into a multiple of `threads` blocks of near-equal size, so no
    // thread idles while another finishes a block (blocks are mr-aligned).
    if (threads > 1) {
      std::int64_t blocks = (g.m + b_.mc - 1) / b_.mc;
      blocks = (blocks + threads - 1) / threads * threads;
      const std::int64_t rows = (g.m + blocks - 1) / blocks;
      b_.mc = std::max<std::int64_t>(uk.mr, (rows + uk.mr - 1) / uk.mr * uk.mr);
    }
    const std::int64_t nc_padded = (std::min(b_.nc, g.n) + uk.nr - 1) / uk.nr * uk.nr;
    b_pack_.resize(static_cast<std::size_t>(b_.kc * nc_padded));
    a_pack_.resize(static_cast<std::size_t>(threads));
    for (auto& a : a_pack_) a.resize(static_cast<std::size_t>(b_.kc * (b_.mc + uk.mr)));
    tiles_.resize(static_cast<std::size_t>(threads));
    for (auto& t : tiles_) t.resize(static_cast<std::size_t>(uk.mr * uk.nr));
  }

  void run() {
#pragma omp parallel num_threads(threads_) if (threads_ > 1)
    body(omp_get_thread_num());
  }

  const Blocking& blocking() const {
    return b_;
  }

 private:
  void body(int tid) {
    const int MR = uk_.mr, NR = uk_.nr;
    T* a_pack = a_pack_[static_cast<std::size_t>(tid)].data.get();
    T* tile = tiles_[static_cast<std::size_t>(tid)].data.get();
    T* b_pack = b_pack_.data.get();
    for (std::int64_t jc = 0; jc < g_.n; jc += b_.nc) {
      const std::int64_t nc = std::min(b_.nc, g_.n - jc);
      const std::int64_t b_panels = (nc + NR - 1) / NR;
      for (std::int64_t pc = 0; pc < g_.k; pc += b_.kc) {
        const std::int64_t kc = std::min(b_.kc, g_.k - pc);
        const bool accumulate = pc > 0;
#pragma omp for schedule(static)
        for (std::int64_t q = 0; q < b_panels; ++q)
          pack_b_panel(g_, pc, kc, jc + q * NR, std::min<std::int64_t>(NR, nc - q * NR), NR,
                       b_pack + q * kc * NR);
        const std::int64_t m_blocks = (g_.m + b_.mc - 1) / b_.mc;
#pragma omp for schedule(dynamic, 1)
        for (std::int64_t blk = 0; blk < m_blocks; ++blk) {
          const std::int64_t ic = blk * b_.mc;
          const std::int64_t mc = std::min(b_.mc, g_.m - ic);
          const std::int64_t a_panels = (mc + MR - 1) / MR;
          for (std::int64_t r = 0; r < a_panels; ++r)
            pack_a_panel(g_, ic + r * MR, std::min<std::int64_t>(MR, mc - r * MR), pc, kc, MR,
                         a_pack + r * kc * MR);
          for (std::int64_t q = 0; q < b_panels; ++q) {
            const std::int64_t nr = std::min<std::int64_t>(NR, nc - q * NR);
            const T* bp = b_pack + q * kc * NR;
            for (std::int64_t r = 0; r < a_panels; ++r) {
              const std::int64_t mr = std::min<std::int64_t>(MR, mc - r * MR);
              T* c = g_.c + (ic + r * MR) * g_.n + jc + q * NR;
              if (mr == MR && nr == NR) {
                uk_.fn(kc, a_pack + r * kc * MR, bp, c, g_.n, accumulate);
              } else {
                uk_.fn(kc, a_pack + r * kc * MR, bp, tile, NR, false);
                for (std::int64_t i = 0; i < mr; ++i)
                  for (std::int64_t j = 0; j < nr; ++j)
                    c[i * g_.n + j] = (accumulate ? c[i * g_.n + j] : T(0)) + tile[i * NR + j];
              }
            }
          }
        }
      }
    }
  }

  cpu::GemmArgs<T> g_{};
  MicroKernel<T> uk_{};
  Blocking b_;
  int threads_ = 1;
  AlignedArray<T> b_pack_;
  std::vector<AlignedArray<T>> a_pack_;
  std::vector<AlignedArray<T>> tiles_;
};

class PackedGemmKernel : public Kernel {
 public:
  PackedGemmKernel(PackedIsa isa, bool threaded) : isa_(isa) {
    const char* isa_name = isa == PackedIsa::avx512 ? "avx512" : "avx2";
    uk32_ = isa == PackedIsa::avx512 ? packed::microkernel_f32_avx512()
                                     : packed::microkernel_f32_avx2();
    uk64_ = isa == PackedIsa::avx512 ? packed::microkernel_f64_avx512()
                                     : packed::microkernel_f64_avx2();
    info_ = {"gemm",
             fmt::format("cpu.packed_{}{}", isa_name, threaded ? "_omp" : ""),
             "cpu",
             {DType::f32, DType::f64},
             threaded,
             fmt::format("BLIS-style packed panels, {} / {} micro-kernels{}", uk32_.name,
                         uk64_.name, threaded ? ", OpenMP over blocks of A" : "")};
  }

  const KernelInfo& info() const override { return info_; }

  Support supports(const Problem& problem, int threads) const override {
    const CpuFeatures& cpu = cpu_features();
    if (isa_ == PackedIsa::avx512 && !cpu.has_avx512())
      return Support::no(info_.id() + " needs AVX-512 (F, DQ, BW, VL), which this CPU lacks");
    if (isa_ == PackedIsa::avx2 && !cpu.has_avx2_fma())
      return Support::no(info_.id() + " needs AVX2 and FMA, which this CPU lacks");
    return check_common_support(info_, problem, threads);
  }

  void prepare(const Problem& problem, Operands& operands, int threads) override {
    dtype_ = problem.dtype;
    if (dtype_ == DType::f32) {
      f32_.prepare(cpu::gemm_args<float>(problem, gemm_view(operands)), uk32_,
                   packed::derive_blocking(cache_sizes(), uk32_.mr, uk32_.nr, 4), threads);
    } else {
      f64_.prepare(cpu::gemm_args<double>(problem, gemm_view(operands)), uk64_,
                   packed::derive_blocking(cache_sizes(), uk64_.mr, uk64_.nr, 8), threads);
    }
  }

  void run() override {
    if (dtype_ == DType::f32)
      f32_.run();
    else
      f64_.run();
  }

  std::map<std::string, std::string> notes() const override {
    const bool f32 = dtype_ == DType::f32;
    return {{"microkernel", f32 ? uk32_.name : uk64_.name},
            {"blocking", f32 ? f32_.blocking().describe() : f64_.blocking().describe()},
            {"caches", cache_sizes().source}};
  }

 private:
  PackedIsa isa_;
  KernelInfo info_;
  MicroKernel<float> uk32_;
  MicroKernel<double> uk64_;
  DType dtype_ = DType::f32;
  PackedGemm<float> f32_;
  PackedGemm<double> f64_;
};

}  // namespace

std::unique_ptr<Kernel> make_packed_gemm(PackedIsa isa, bool threaded) {
  return std::make_unique<PackedGemmKernel>(isa, threaded);
}

}  // namespace ridgeline
