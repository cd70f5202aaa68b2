#pragma once
// An operand's indices put in another order (a tensor transpose), as TTGT needs it: where
// the last index stays last, runs of it are copied as they are; otherwise tiles of the
// input's and the output's stride-1 indices are transposed in L1-sized blocks (HPTT's
// idea), so each cache line is read and written whole, 8 x 8 (f32) or 4 x 4 (f64) blocks
// of them in AVX2 registers (the build's baseline ISA). OpenMP over the other indices and
// the tiles.
#include <cstdint>
#include <string>

#include "ridgeline/core/ops/einsum.hpp"

namespace ridgeline {

// out (indices `to`) := in (indices `from`), every index's extent from `s`; `to` is a
// permutation of `from`.
template <typename T>
void einsum_permute(const EinsumSpec& s, const std::string& from, const T* in,
                    const std::string& to, T* out, int threads);

extern template void einsum_permute<float>(const EinsumSpec&, const std::string&, const float*,
                                           const std::string&, float*, int);
extern template void einsum_permute<double>(const EinsumSpec&, const std::string&, const double*,
                                            const std::string&, double*, int);

}  // namespace ridgeline
