// The packed GEMM driver (packed_gemm.hpp).
#include "packed_gemm.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <thread>

#include "panel_packing.hpp"

namespace ridgeline::packed {

namespace {

std::int64_t round_up(std::int64_t x, int multiple) {
  return (x + multiple - 1) / multiple * multiple;
}

}  // namespace

template <typename In, typename Out>
void PackedGemm<In, Out>::prepare(const cpu::GemmArgs<In, Out>& g, const MicroKernel<In, Out>& uk,
                                  const Blocking& blocking, int threads,
                                  std::optional<Epilogue<In>> epilogue,
                                  const GatherLayout* gather) {
  if (epilogue && !uk.epilogue)
    throw std::logic_error(std::string("micro-kernel ") + uk.name + " has no epilogue variant");
  if (epilogue && gather) throw std::logic_error("a gathered GEMM takes no epilogue");
  if (gather && (uk.pack_a || uk.k_block != kGroup<In> || uk.b_tail))
    throw std::logic_error(std::string("micro-kernel ") + uk.name +
                           " packs a layout of its own, which a gathered GEMM does not");
  gather_ = gather;
  if (gather) plan_ = plan_gather(*gather, g.k, uk.mr, uk.nr, blocking.kc);
  g_ = g;
  uk_ = uk;
  threads_ = threads;
  b_ = blocking;
  // Every kc block but the last a whole number of the micro-kernel's k blocks: a block padded
  // in the middle of k would multiply zeros.
  b_.kc = std::max<std::int64_t>(uk.k_block, b_.kc / uk.k_block * uk.k_block);
  epilogue_ = epilogue;
  // Cut m into a multiple of `threads` blocks (mr-aligned) that differ by at most one
  // micro-panel: no thread idles while another finishes a block, and no last block of a few
  // rows makes each B panel travel to L2 for two or three calls (f64 m = 1024 at mc = 504 left
  // 16 rows: 112 GFLOP/s on 1 thread, 114-115 in three blocks of 350). Blocks of a common mc
  // left the last one short (f64 m = 4096 on 2 threads: nine of 414 rows and one of 370).
  std::int64_t blocks = (g.m + b_.mc - 1) / b_.mc;
  blocks = (blocks + threads - 1) / threads * threads;
  m_panels_ = (g.m + uk.mr - 1) / uk.mr;
  m_blocks_ = blocks;
  b_.mc = (m_panels_ + blocks - 1) / blocks * uk.mr;  // the largest block
  const std::int64_t nc_padded = round_up(std::min(b_.nc, g.n), uk.nr);
  const std::int64_t kc_padded = round_up(b_.kc, uk.k_block);
  // Two B blocks where several threads take more than one: a thread that finishes its share
  // of one block's products goes on to the next, packing its panels into the other buffer
  // while the others finish (docs/ladder-performance.md).
  const std::int64_t steps = (g.n + b_.nc - 1) / b_.nc * ((g.k + b_.kc - 1) / b_.kc);
  b_buffers_ = threads > 1 && steps > 1 ? 2 : 1;
  steps_ = steps;
  epoch_ = 1;
  const std::size_t panels = static_cast<std::size_t>(nc_padded / uk.nr);
  for (int i = 0; i < 2; ++i) {
    if (i < b_buffers_) {
      b_pack_[i].resize(static_cast<std::size_t>(kc_padded * nc_padded) +
                        panels * static_cast<std::size_t>(uk.b_tail));
      b_state_[i] = std::make_unique<std::atomic<std::int64_t>[]>(panels);
    } else {
      b_pack_[i].data.reset();
      b_state_[i].reset();
    }
  }
  block_done_ = std::make_unique<std::atomic<std::int64_t>[]>(static_cast<std::size_t>(blocks));
  a_pack_.resize(static_cast<std::size_t>(threads));
  for (auto& a : a_pack_) a.resize(static_cast<std::size_t>(kc_padded * (b_.mc + uk.mr)));
  tiles_.resize(static_cast<std::size_t>(threads));
  for (auto& t : tiles_) t.resize(static_cast<std::size_t>(uk.mr * uk.nr));
  bias_tiles_.resize(epilogue ? static_cast<std::size_t>(threads) : 0);
  for (auto& t : bias_tiles_) t.resize(static_cast<std::size_t>(uk.nr));
}

template <typename In, typename Out>
void PackedGemm<In, Out>::run() {
#pragma omp parallel num_threads(threads_) if (threads_ > 1)
  body(omp_get_thread_num());
  epoch_ += steps_;
}

namespace {

// Waits until `a` reaches `value`: the waits here last a panel's packing or the end of a
// block, so a spin, yielding once it has run a while (more threads than cores).
void wait_until(const std::atomic<std::int64_t>& a, std::int64_t value) {
  for (int spins = 0; a.load(std::memory_order_acquire) < value; ++spins) {
    if (spins < 4096) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#elif defined(__aarch64__)
      __asm__ __volatile__("yield");  // the spin-wait hint
#endif
    } else {
      std::this_thread::yield();
    }
  }
}

}  // namespace

template <typename In, typename Out>
void PackedGemm<In, Out>::body(int tid) {
  if (uk_.begin) uk_.begin();
  walk(tid);
  if (uk_.end) uk_.end();
}

template <typename In, typename Out>
void PackedGemm<In, Out>::walk(int tid) {
  const int MR = uk_.mr, NR = uk_.nr;
  In* a_pack = a_pack_[static_cast<std::size_t>(tid)].data.get();
  std::int64_t epoch = epoch_;
  for (std::int64_t jc = 0; jc < g_.n; jc += b_.nc) {
    const std::int64_t nc = std::min(b_.nc, g_.n - jc);
    const std::int64_t b_panels = (nc + NR - 1) / NR;
    for (std::int64_t pc = 0; pc < g_.k; pc += b_.kc, ++epoch) {
      const std::int64_t kc = std::min(b_.kc, g_.k - pc);
      const std::int64_t kp = round_up(kc, uk_.k_block);  // the panels' padded depth
      const bool accumulate = pc > 0;
      // The epilogue goes where each tile is stored for the last time.
      const bool last = epilogue_ && pc + kc == g_.k;
      const int buffer = static_cast<int>(epoch % b_buffers_);
      In* b_pack = b_pack_[buffer].data.get();
      std::atomic<std::int64_t>* state = b_state_[buffer].get();
      // This B block's buffer was last read in epoch - b_buffers_: every block of A must be
      // done with that one before a panel of this one is packed over it.
      for (std::int64_t blk = 0; blk < m_blocks_; ++blk)
        wait_until(block_done_[blk], epoch - b_buffers_);
      // B's panels are packed where a thread first needs them, by that thread (claimed, then
      // ready): the threads start their walk over the panels at different ones, so each packs
      // its share while the others multiply, and no thread waits at a barrier.
      const std::int64_t claimed = 2 * epoch, ready = 2 * epoch + 1;
      const auto ensure_packed = [&](std::int64_t q) {
        std::int64_t s = state[q].load(std::memory_order_acquire);
        if (s == ready) return;
        if (s < claimed &&
            state[q].compare_exchange_strong(s, claimed, std::memory_order_acq_rel)) {
          pack_b_panel(jc, nc, pc, kc, q, b_pack);
          state[q].store(ready, std::memory_order_release);
          return;
        }
        wait_until(state[q], ready);
      };
      const std::int64_t q0 = b_panels * tid / threads_;
#pragma omp for schedule(dynamic, 1) nowait
      for (std::int64_t blk = 0; blk < m_blocks_; ++blk) {
        const std::int64_t ic = m_panels_ * blk / m_blocks_ * MR;
        const std::int64_t mc = std::min(m_panels_ * (blk + 1) / m_blocks_ * MR, g_.m) - ic;
        // Its rows of C were last written in the epoch before, maybe by another thread.
        wait_until(block_done_[blk], epoch - 1);
        // mc <= 0: more blocks than micro-panels (m < threads * MR).
        const std::int64_t a_panels = mc > 0 ? (mc + MR - 1) / MR : 0;
        for (std::int64_t i = 0; i < (a_panels > 0 ? b_panels : 0); ++i) {
          const std::int64_t q = (q0 + i) % b_panels;
          ensure_packed(q);
          const std::int64_t nr = std::min<std::int64_t>(NR, nc - q * NR);
          const std::int64_t j0 = jc + q * NR;
          const In* bp = b_pack + q * b_stride(kp);
          // The next B panel of the walk (or its first for the next block), a share of it per
          // call: kp / kNextEvery lines each (micro-kernel contract).
          const In* next_panel = b_pack + (q + 1 < b_panels ? q + 1 : 0) * b_stride(kp);
          const std::int64_t share = kp / kNextEvery * kLineBytes / std::int64_t{sizeof(In)};
          for (std::int64_t r = 0; r < a_panels; ++r) {
            const In* next = r * share < kp * NR ? next_panel + r * share : nullptr;
            const std::int64_t mr = std::min<std::int64_t>(MR, mc - r * MR);
            In* ap = a_pack + r * kp * MR;
            const std::int64_t i0 = ic + r * MR;
            // A's panels are packed on the walk's first B panel, each right before its call.
            if (i == 0) pack_a_panel(i0, pc, mr, kc, ap);
            Out* c = nullptr;
            std::int64_t ldc = g_.n;
            const bool direct = direct_tile(i0, j0, c, ldc);
            if (direct && mr < MR && nr == NR && !last)
              uk_.rows(static_cast<int>(mr), kp, ap, bp, next, c, ldc, accumulate);
            else if (!direct || mr < MR || nr < NR)
              edge_tile(kp, ap, bp, i0, mr, nr, j0, accumulate, last, tid);
            else if (last)
              uk_.epilogue(kp, ap, bp, next, c, ldc, accumulate, epilogue_->bias + j0,
                           epilogue_->act);
            else
              uk_.fn(kp, ap, bp, next, c, ldc, accumulate);
          }
        }
        block_done_[blk].store(epoch, std::memory_order_release);
      }
    }
  }
}

// op(A)[i][p] at a[i * a_row + p * a_col], op(B)[p][j] at b[p * b_row + j * b_col]. A
// panel's lanes are MR rows of op(A), a B panel's NR columns of op(B) (panel_packing.hpp);
// the micro-kernel names its packing routine.
template <typename In, typename Out>
void PackedGemm<In, Out>::pack_a_panel(std::int64_t i0, std::int64_t pc, std::int64_t mr,
                                       std::int64_t kc, In* out) {
  if (gather_) {
    pack_gathered(g_.a, gather_->a_m.data() + i0, plan_.a_lanes[i0 / uk_.mr],
                  plan_.a_runs[pc / b_.kc], gather_->a_k.data() + pc, mr, kc, uk_.mr, out);
    return;
  }
  const std::int64_t a_row = g_.ta ? 1 : g_.lda, a_col = g_.ta ? g_.lda : 1;
  (uk_.pack_a ? uk_.pack_a : uk_.pack)(g_.a + i0 * a_row + pc * a_col, a_row, a_col, mr, kc, uk_.mr,
                                       out);
}

template <typename In, typename Out>
void PackedGemm<In, Out>::pack_b_panel(std::int64_t jc, std::int64_t nc, std::int64_t pc,
                                       std::int64_t kc, std::int64_t q, In* b_pack) {
  const int NR = uk_.nr;
  const std::int64_t kp = round_up(kc, uk_.k_block);
  const std::int64_t j0 = jc + q * NR, lanes = std::min<std::int64_t>(NR, nc - q * NR);
  In* out = b_pack + q * b_stride(kp);
  if (gather_) {
    pack_gathered(g_.b, gather_->b_n.data() + j0, plan_.b_lanes[j0 / NR], plan_.b_runs[pc / b_.kc],
                  gather_->b_k.data() + pc, lanes, kc, NR, out);
    return;
  }
  const std::int64_t b_row = g_.tb ? 1 : g_.ldb, b_col = g_.tb ? g_.ldb : 1;
  uk_.pack(g_.b + pc * b_row + j0 * b_col, b_col, b_row, lanes, kc, NR, out);
}

template <typename In, typename Out>
void PackedGemm<In, Out>::pack_gathered(const In* src, const std::int64_t* lanes_at,
                                        std::int64_t lane_stride, const std::vector<StepRun>& runs,
                                        const std::int64_t* steps_at, std::int64_t lanes,
                                        std::int64_t kc, int width, In* out) {
  // Packed groups of k (bf16) are not split into runs: GETT runs f32 and f64.
  if (lane_stride == kIrregular || runs.empty() || kGroup<In> != 1) {
    pack_panel_gathered(src, lanes_at, steps_at, lanes, kc, width, out);
    return;
  }
  for (const StepRun& r : runs)
    uk_.pack(src + lanes_at[0] + steps_at[r.start], lane_stride, r.stride, lanes, r.length, width,
             out + r.start * width);
}

template <typename In, typename Out>
bool PackedGemm<In, Out>::direct_tile(std::int64_t i0, std::int64_t j0, Out*& c,
                                      std::int64_t& ldc) const {
  if (!gather_) {
    c = g_.c + i0 * g_.n + j0;
    ldc = g_.n;
    return true;
  }
  // Planned per panel: a tile of fewer rows or columns is its panel's last.
  const std::int64_t rows = plan_.c_rows[i0 / uk_.mr];
  if (rows == kIrregular || plan_.c_cols[j0 / uk_.nr] != 1) return false;
  c = g_.c + gather_->c_m[i0] + gather_->c_n[j0];
  ldc = rows;
  return true;
}

template <typename In, typename Out>
void PackedGemm<In, Out>::edge_tile(std::int64_t kc, const In* a, const In* b, std::int64_t i0,
                                    std::int64_t mr, std::int64_t nr, std::int64_t j0,
                                    bool accumulate, bool last, int tid) {
  const int NR = uk_.nr;
  Out* tile = tiles_[static_cast<std::size_t>(tid)].data.get();
  if (!last) {
    uk_.fn(kc, a, b, nullptr, tile, NR, false);
    for (std::int64_t i = 0; i < mr; ++i)
      for (std::int64_t j = 0; j < nr; ++j) {
        Out& c = c_at(i0 + i, j0 + j);
        c = (accumulate ? c : Out(0)) + tile[i * NR + j];
      }
    return;
  }
  // The epilogue needs the partial sums of the earlier kc blocks in the tile, and a bias
  // of NR entries: zeros past the edge (those lanes are computed and dropped; bf16's zero
  // is all bits clear too).
  In* bias = bias_tiles_[static_cast<std::size_t>(tid)].data.get();
  for (std::int64_t j = 0; j < NR; ++j) bias[j] = j < nr ? epilogue_->bias[j0 + j] : In(0);
  if (accumulate) {
    std::fill(tile, tile + uk_.mr * NR, Out(0));
    for (std::int64_t i = 0; i < mr; ++i)
      for (std::int64_t j = 0; j < nr; ++j) tile[i * NR + j] = c_at(i0 + i, j0 + j);
  }
  uk_.epilogue(kc, a, b, nullptr, tile, NR, accumulate, bias, epilogue_->act);
  for (std::int64_t i = 0; i < mr; ++i)
    for (std::int64_t j = 0; j < nr; ++j) c_at(i0 + i, j0 + j) = tile[i * NR + j];
}

template class PackedGemm<float>;
template class PackedGemm<double>;
template class PackedGemm<std::uint16_t, float>;
template class PackedGemm<std::int8_t, std::int32_t>;

}  // namespace ridgeline::packed
