#pragma once
// An operand's indices put in another order (a tensor transpose), as TTGT needs it: where
// the last index stays last, runs of it are copied as they are, in the input's order (runs
// of 16 or 32 bytes whose neighbours change places transposed as elements, in blocks of
// 128/256-bit lanes);
// otherwise the input's and the output's stride-1 indices are transposed in tiles (HPTT's
// idea), blocks of them in registers: on AVX-512 16 x 16 (f32) or 8 x 8 (f64), each row of a
// block one whole line read and one written, the input walked in order; on AVX2 8 x 8 or
// 4 x 4 in L1-sized tiles (permute_blocks.hpp). Streaming stores for the runs and the
// AVX-512 blocks where the data would not stay in cache anyway. OpenMP over the other
// indices and the tiles.
#include <cstdint>
#include <string>

#include "ridgeline/core/ops/einsum.hpp"

namespace ridgeline {

struct PermuteOptions {
  bool avx512 = false;  // the AVX-512 blocks (the CPU must have them)
  bool stream = false;  // non-temporal stores for whole aligned lines
};
// What einsum_permute picks on this CPU where the data a call touches (the permute's input
// and output, or a whole TTGT's operands and buffers) comes to `footprint_bytes`: streaming
// stores past the last-level cache, where nothing stays cached from one call to the next.
PermuteOptions permute_options(std::int64_t footprint_bytes);

// out (indices `to`) := in (indices `from`), every index's extent from `s`; `to` is a
// permutation of `from`. Without options: permute_options of the input and output.
template <typename T>
void einsum_permute(const EinsumSpec& s, const std::string& from, const T* in,
                    const std::string& to, T* out, int threads);
template <typename T>
void einsum_permute(const EinsumSpec& s, const std::string& from, const T* in,
                    const std::string& to, T* out, int threads, PermuteOptions options);

extern template void einsum_permute<float>(const EinsumSpec&, const std::string&, const float*,
                                           const std::string&, float*, int);
extern template void einsum_permute<double>(const EinsumSpec&, const std::string&, const double*,
                                            const std::string&, double*, int);
extern template void einsum_permute<float>(const EinsumSpec&, const std::string&, const float*,
                                           const std::string&, float*, int, PermuteOptions);
extern template void einsum_permute<double>(const EinsumSpec&, const std::string&, const double*,
                                            const std::string&, double*, int, PermuteOptions);

}  // namespace ridgeline
