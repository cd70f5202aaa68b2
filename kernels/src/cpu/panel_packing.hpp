#pragma once
// Packing one micro-panel of the packed GEMM (packed_gemm.hpp) in the layout the
// micro-kernels read (microkernel.hpp). A's panels (MR rows of op(A)) and B's (NR columns of
// op(B)) are the same thing seen from the micro-kernel: `lanes` lanes of kc k steps, lane l's
// step p at src[l * lane_stride + p * k_stride], packed to
//   out[(p / K) * width * K + l * K + p % K]        (K = kGroup<In>)
// zero-padded to `width` lanes and to a multiple of K steps. A row-major op(A) has
// k_stride 1, a row-major op(B) lane_stride 1; a transposed operand swaps the strides.
#include <cstdint>

#include "microkernel.hpp"

namespace ridgeline::packed {

// bf16 and int8 with AVX-512 (F, BW, VL; panel_packing_grouped_avx512.cpp): the same panels,
// bit for bit, with the rows of a group interleaved or a 32-bit transpose instead of one
// element at a time. The caller checks CPUID.
void pack_panel_bf16_avx512(const std::uint16_t* src, std::int64_t lane_stride,
                            std::int64_t k_stride, std::int64_t lanes, std::int64_t kc, int width,
                            std::uint16_t* out);
void pack_panel_i8_avx512(const std::int8_t* src, std::int64_t lane_stride, std::int64_t k_stride,
                          std::int64_t lanes, std::int64_t kc, int width, std::int8_t* out);

// f32 and f64 with AVX-512 (F, DQ, BW, VL; panel_packing_avx512.cpp): the same panels, bit for bit,
// with a lane's contiguous steps transposed in registers. The caller checks CPUID.
template <typename T>
void pack_panel_avx512(const T* src, std::int64_t lane_stride, std::int64_t k_stride,
                       std::int64_t lanes, std::int64_t kc, int width, T* out);

// The portable packing (panel_packing.cpp): float, double, bf16 bits (std::uint16_t) and int8;
// a PackPanelFn (microkernel.hpp).
template <typename In>
void pack_panel(const In* src, std::int64_t lane_stride, std::int64_t k_stride, std::int64_t lanes,
                std::int64_t kc, int width, In* out);

// The same panel gathered from a tensor (gather_layout.hpp): lane l's step p at
// src[lane_offsets[l] + k_offsets[p]], for offsets that run at no one stride.
template <typename In>
void pack_panel_gathered(const In* src, const std::int64_t* lane_offsets,
                         const std::int64_t* k_offsets, std::int64_t lanes, std::int64_t kc,
                         int width, In* out);

}  // namespace ridgeline::packed
