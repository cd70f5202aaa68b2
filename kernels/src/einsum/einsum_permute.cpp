#include "einsum_permute.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "einsum_strides.hpp"

namespace ridgeline {

namespace {

// The output's indices other than the ones a kernel walks itself: extent and stride in the
// input and the output, to turn a flat position into the two offsets.
struct Outer {
  std::vector<std::int64_t> extent, in, out;
  void offsets(std::int64_t o, std::int64_t& in_at, std::int64_t& out_at) const {
    in_at = out_at = 0;
    for (std::size_t d = extent.size(); d-- > 0;) {
      const std::int64_t i = o % extent[d];
      o /= extent[d];
      in_at += i * in[d];
      out_at += i * out[d];
    }
  }
};

}  // namespace

template <typename T>
void einsum_permute(const EinsumSpec& s, const std::string& from, const T* in,
                    const std::string& to, T* out, int threads) {
  const std::size_t n = to.size();
  if (n == 0) {
    out[0] = in[0];
    return;
  }
  std::vector<std::int64_t> ext(n), is(n), os(n);
  std::int64_t total = 1;
  for (std::size_t d = n; d-- > 0;) {
    ext[d] = s.extents.at(to[d]);
    os[d] = total;
    total *= ext[d];
    is[d] = stride_of(from, to[d], s);
  }
  const std::size_t x = to.find(from.back()), y = n - 1;  // stride 1 in the input, the output
  Outer outer;
  for (std::size_t d = 0; d < n; ++d)
    if (d != x && d != y) {
      outer.extent.push_back(ext[d]);
      outer.in.push_back(is[d]);
      outer.out.push_back(os[d]);
    }

  if (x == y) {  // the last index stays last: runs of it copied whole
    const std::int64_t run = ext[y], runs = total / run;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t r = 0; r < runs; ++r) {
      std::int64_t in_at = 0, out_at = 0;
      outer.offsets(r, in_at, out_at);
      std::memcpy(out + out_at, in + in_at, static_cast<std::size_t>(run) * sizeof(T));
    }
    return;
  }

  // Tiles of 128 bytes by 128 bytes over (x, y): each read and written line whole, the tile
  // in L1.
  constexpr std::int64_t B = 128 / sizeof(T);
  const std::int64_t ex = ext[x], ey = ext[y], sy = is[y], sx = os[x];
  const std::int64_t tx = (ex + B - 1) / B, ty = (ey + B - 1) / B;
  const std::int64_t tiles = total / (ex * ey) * tx * ty;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t t = 0; t < tiles; ++t) {
    std::int64_t in_at = 0, out_at = 0;
    outer.offsets(t / (tx * ty), in_at, out_at);
    const std::int64_t x0 = (t % (tx * ty)) / ty * B, y0 = t % ty * B;
    const std::int64_t x1 = std::min(ex, x0 + B), y1 = std::min(ey, y0 + B);
    for (std::int64_t i = x0; i < x1; ++i) {
      const T* src = in + in_at + i;  // x at stride 1 in the input
      T* dst = out + out_at + i * sx;
      for (std::int64_t j = y0; j < y1; ++j) dst[j] = src[j * sy];
    }
  }
}

template void einsum_permute<float>(const EinsumSpec&, const std::string&, const float*,
                                    const std::string&, float*, int);
template void einsum_permute<double>(const EinsumSpec&, const std::string&, const double*,
                                     const std::string&, double*, int);

}  // namespace ridgeline
