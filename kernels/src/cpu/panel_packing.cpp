// The portable micro-panel packing (panel_packing.hpp).
#include "panel_packing.hpp"

#include <algorithm>
#include <cstring>

namespace ridgeline::packed {

namespace {

// kc rows of W contiguous elements, a fixed-size copy each: the general loop below became a
// memmove call per k step (3% of an f64 n = 1024 GEMM in its B packing).
template <int W, typename In>
void copy_rows_of(const In* src, std::int64_t k_stride, std::int64_t kc, In* __restrict out) {
  // The panel two to the right reads the next lines of these same rows: requested now, as
  // the rows lie k_stride apart, more of them than the prefetchers follow (GETT packing
  // nchw,oc->nohw's 32 rows 12.5 KB apart: 94% of the packing's samples on this load).
  constexpr std::int64_t ahead = 2 * W * sizeof(In), bytes = W * sizeof(In);
  for (std::int64_t p = 0; p < kc; ++p) {
    const In* s = src + p * k_stride;
    In* d = out + p * W;
    for (std::int64_t b = 0; b < bytes; b += 64)
      __builtin_prefetch(reinterpret_cast<const char*>(s) + ahead + b);
#pragma GCC unroll 32
    for (int l = 0; l < W; ++l) d[l] = s[l];
  }
}

// The micro-kernels' panel widths; false for another width.
template <typename In>
bool copy_rows(const In* src, std::int64_t k_stride, std::int64_t kc, In* out, int width) {
  switch (width) {
    case 8:
      copy_rows_of<8>(src, k_stride, kc, out);
      return true;
    case 16:
      copy_rows_of<16>(src, k_stride, kc, out);
      return true;
    case 32:
      copy_rows_of<32>(src, k_stride, kc, out);
      return true;
    default:
      return false;
  }
}

}  // namespace

template <typename In>
void pack_panel(const In* src, std::int64_t lane_stride, std::int64_t k_stride, std::int64_t lanes,
                std::int64_t kc, int width, In* __restrict out) {
  constexpr int K = kGroup<In>;
  const std::int64_t kc_padded = (kc + K - 1) / K * K;
  if (lanes < width || kc_padded != kc)
    std::memset(out, 0, sizeof(In) * static_cast<std::size_t>(kc_padded * width));
  // Read along whichever stride is unit, so the source is read in order.
  if (k_stride == 1) {
    // kSteps k steps at a time, so the part of the panel being filled (kSteps x width) stays
    // in L1 while each lane writes its column of it: lane by lane over all of kc, every lane
    // walked the whole panel (112 KiB for f64 at kc = 1024), 6% of an n = 1024 GEMM.
    constexpr std::int64_t kSteps = 64;  // a multiple of K
    for (std::int64_t p0 = 0; p0 < kc; p0 += kSteps) {
      const std::int64_t p1 = std::min(kc, p0 + kSteps);
      for (std::int64_t l = 0; l < lanes; ++l) {
        const In* s = src + l * lane_stride;
        In* d = out + l * K;
        // The lane's next block, requested while this one is copied: the loads here wait on
        // memory otherwise (A packing 3.8 -> 2.9% of an f64 n = 1024 GEMM on 2 threads).
        if (p1 < kc)
          for (std::int64_t b = 0; b < kSteps * std::int64_t{sizeof(In)}; b += 64)
            __builtin_prefetch(reinterpret_cast<const char*>(s + p1) + b);
        for (std::int64_t p = p0; p < p1; ++p) d[p / K * width * K + p % K] = s[p];
      }
    }
  } else {
    if (K == 1 && lane_stride == 1 && lanes == width && copy_rows(src, k_stride, kc, out, width))
      return;
    for (std::int64_t p = 0; p < kc; ++p) {
      const In* s = src + p * k_stride;
      In* d = out + p / K * width * K + p % K;
      for (std::int64_t l = 0; l < lanes; ++l) d[l * K] = s[l * lane_stride];
    }
  }
}

template <typename In>
void pack_panel_gathered(const In* src, const std::int64_t* lane_offsets,
                         const std::int64_t* k_offsets, std::int64_t lanes, std::int64_t kc,
                         int width, In* __restrict out) {
  constexpr int K = kGroup<In>;
  const std::int64_t kc_padded = (kc + K - 1) / K * K;
  if (lanes < width || kc_padded != kc)
    std::memset(out, 0, sizeof(In) * static_cast<std::size_t>(kc_padded * width));
  // Along whichever is adjacent in memory: a step's lanes where the first two are
  // neighbours, else each lane's steps (runs of a contracted index at stride 1, mostly).
  if (lanes > 1 && lane_offsets[1] - lane_offsets[0] == 1) {
    for (std::int64_t p = 0; p < kc; ++p) {
      const In* s = src + k_offsets[p];
      In* d = out + p / K * width * K + p % K;
      for (std::int64_t l = 0; l < lanes; ++l) d[l * K] = s[lane_offsets[l]];
    }
  } else {
    for (std::int64_t l = 0; l < lanes; ++l) {
      const In* s = src + lane_offsets[l];
      In* d = out + l * K;
      for (std::int64_t p = 0; p < kc; ++p) d[p / K * width * K + p % K] = s[k_offsets[p]];
    }
  }
}

template void pack_panel<float>(const float*, std::int64_t, std::int64_t, std::int64_t,
                                std::int64_t, int, float*);
template void pack_panel<double>(const double*, std::int64_t, std::int64_t, std::int64_t,
                                 std::int64_t, int, double*);
template void pack_panel<std::uint16_t>(const std::uint16_t*, std::int64_t, std::int64_t,
                                        std::int64_t, std::int64_t, int, std::uint16_t*);
template void pack_panel<std::int8_t>(const std::int8_t*, std::int64_t, std::int64_t, std::int64_t,
                                      std::int64_t, int, std::int8_t*);
template void pack_panel_gathered<float>(const float*, const std::int64_t*, const std::int64_t*,
                                         std::int64_t, std::int64_t, int, float*);
template void pack_panel_gathered<double>(const double*, const std::int64_t*, const std::int64_t*,
                                          std::int64_t, std::int64_t, int, double*);
template void pack_panel_gathered<std::uint16_t>(const std::uint16_t*, const std::int64_t*,
                                                 const std::int64_t*, std::int64_t, std::int64_t,
                                                 int, std::uint16_t*);
template void pack_panel_gathered<std::int8_t>(const std::int8_t*, const std::int64_t*,
                                               const std::int64_t*, std::int64_t, std::int64_t, int,
                                               std::int8_t*);

}  // namespace ridgeline::packed
