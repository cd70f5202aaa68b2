#include "einsum_permute.hpp"

#include <omp.h>

#include <algorithm>
#include <vector>

#include "einsum_strides.hpp"
#include "permute_blocks.hpp"
#include "ridgeline/kernels/cache_sizes.hpp"
#include "ridgeline/kernels/cpu_features.hpp"

namespace ridgeline {

namespace {

// The loops around the kernel's own work: each walked dimension's extent and stride in the
// input and the output, outermost first; a flat position turns into the two offsets (and,
// for the transpose's tile dimensions, the tile's number along x and y).
struct Walk {
  enum class Role { plain, x_tile, y_tile };
  struct Dim {
    std::int64_t extent, in, out;
    Role role = Role::plain;
  };
  std::vector<Dim> dims;

  // Largest input stride first: consecutive positions read neighbouring memory, so the reads
  // stream in order and the hardware prefetcher follows them.
  void in_input_order() {
    std::stable_sort(dims.begin(), dims.end(),
                     [](const Dim& p, const Dim& q) { return p.in > q.in; });
  }
  std::int64_t count() const {
    std::int64_t c = 1;
    for (const Dim& d : dims) c *= d.extent;
    return c;
  }
  struct At {
    std::int64_t in = 0, out = 0, x_tile = 0, y_tile = 0;
  };
  At at(std::int64_t o) const {
    At a;
    for (std::size_t d = dims.size(); d-- > 0;) {
      const std::int64_t i = o % dims[d].extent;
      o /= dims[d].extent;
      a.in += i * dims[d].in;
      a.out += i * dims[d].out;
      if (dims[d].role == Role::x_tile) a.x_tile = i;
      if (dims[d].role == Role::y_tile) a.y_tile = i;
    }
    return a;
  }
};

}  // namespace

PermuteOptions permute_options(std::int64_t footprint_bytes) {
  PermuteOptions o;
  o.avx512 = cpu_features().has_avx512();
  // Streaming stores skip the read for ownership a cached store pays (a third of a copy's
  // DRAM traffic) but leave nothing in cache: worth it where the data would not stay there
  // from one call to the next anyway.
  o.stream = permute::kStreamingStores && footprint_bytes > cache_sizes().l3;
  return o;
}

template <typename T>
void einsum_permute(const EinsumSpec& s, const std::string& from, const T* in,
                    const std::string& to, T* out, int threads, PermuteOptions opt) {
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

  Walk walk;
  for (std::size_t d = 0; d < n; ++d)
    if (d != x && d != y) walk.dims.push_back({ext[d], is[d], os[d]});

  if (x == y && n >= 3) {
    // Runs of 16 or 32 bytes whose neighbours change places (the input's next index is not
    // the output's): each run lands in another output row, so runs are transposed as
    // elements, in blocks of whole lines, across strips of the input (as the tiles below).
    const std::int64_t run_bytes = ext[y] * static_cast<std::int64_t>(sizeof(T));
    const std::size_t u = to.find(from[from.size() - 2]), v = n - 2;
    if ((run_bytes == 16 || run_bytes == 32) && u != v) {
      const std::int64_t L = 64 / run_bytes, E = sizeof(T);
      Walk strips;
      for (std::size_t d = 0; d + 1 < n; ++d)
        if (d != u && d != v) strips.dims.push_back({ext[d], is[d], os[d]});
      strips.dims.push_back({(ext[v] + L - 1) / L, L * is[v], L * os[v], Walk::Role::y_tile});
      strips.in_input_order();
      const std::int64_t tasks = strips.count();
#pragma omp parallel for num_threads(threads) schedule(static)
      for (std::int64_t t = 0; t < tasks; ++t) {
        const Walk::At at = strips.at(t);
        const auto* src = reinterpret_cast<const char*>(in + at.in);
        auto* dst = reinterpret_cast<char*>(out + at.out);
        const std::int64_t rows = std::min(L, ext[v] - at.y_tile * L);
        permute::transpose_runs_baseline(src, is[v] * E, dst, os[u] * E, ext[u], rows,
                                         static_cast<int>(run_bytes));
      }
      return;
    }
  }

  if (x == y) {  // the last index stays last: runs of it copied whole, read in input order
    const std::int64_t run = ext[y];
    // Streamed only in whole lines: a run shorter than one leaves lines partly written
    // (runs of 8 and 4 f32 ran 10-25% slower streamed on Zen 4).
    const bool stream = opt.stream && run * static_cast<std::int64_t>(sizeof(T)) % 64 == 0;
    walk.in_input_order();
    // The index nearest the run in the input walked in a loop of its own: one offset
    // computation per row of runs, not per run.
    Walk::Dim inner{1, 0, 0};
    if (!walk.dims.empty()) {
      inner = walk.dims.back();
      walk.dims.pop_back();
    }
    const std::int64_t rows = walk.count();
#pragma omp parallel num_threads(threads)
    {
#pragma omp for schedule(static)
      for (std::int64_t r = 0; r < rows; ++r) {
        const Walk::At at = walk.at(r);
        for (std::int64_t i = 0; i < inner.extent; ++i)
          permute::copy_run(in + at.in + i * inner.in, out + at.out + i * inner.out, run, stream);
      }
      if (stream) permute::fence_streamed();  // the streamed lines visible before the barrier
    }
    return;
  }

  // A 2-d transpose of (x, y) in tiles, the other indices around it. AVX-512: strips of one
  // block's rows of the input (16 f32, 8 f64) across the whole of x, every loop in the
  // input's order, so the input is read row after row. AVX2: tiles of 128 x 128 bytes, each
  // in L1; staged ones (permute_blocks.hpp) in the input's order as well, the others along
  // y inside x inside the other indices in the output's order.
  const std::int64_t ex = ext[x], ey = ext[y], sy = is[y], sx = os[x];
  const std::int64_t bx = opt.avx512 ? ex : 128 / static_cast<std::int64_t>(sizeof(T));
  const std::int64_t by = (opt.avx512 ? 64 : 128) / static_cast<std::int64_t>(sizeof(T));
  walk.dims.push_back({(ex + bx - 1) / bx, bx, bx * sx, Walk::Role::x_tile});
  walk.dims.push_back({(ey + by - 1) / by, by * sy, by, Walk::Role::y_tile});
  if (opt.avx512 || permute::avx2_tile_staged(opt.stream)) walk.in_input_order();
  const std::int64_t tiles = walk.count();
#pragma omp parallel num_threads(threads)
  {
#pragma omp for schedule(static)
    for (std::int64_t t = 0; t < tiles; ++t) {
      const Walk::At at = walk.at(t);
      const std::int64_t w = std::min(ex - at.x_tile * bx, bx);
      const std::int64_t h = std::min(ey - at.y_tile * by, by);
      if (opt.avx512)
        permute::transpose_tile_avx512(in + at.in, sy, out + at.out, sx, w, h, opt.stream);
      else
        permute::transpose_tile_baseline(in + at.in, sy, out + at.out, sx, w, h, opt.stream);
    }
    if (opt.stream) permute::fence_streamed();
  }
}

template <typename T>
void einsum_permute(const EinsumSpec& s, const std::string& from, const T* in,
                    const std::string& to, T* out, int threads) {
  einsum_permute(s, from, in, to, out, threads,
                 permute_options(2 * s.elements(to) * static_cast<std::int64_t>(sizeof(T))));
}

template void einsum_permute<float>(const EinsumSpec&, const std::string&, const float*,
                                    const std::string&, float*, int);
template void einsum_permute<double>(const EinsumSpec&, const std::string&, const double*,
                                     const std::string&, double*, int);
template void einsum_permute<float>(const EinsumSpec&, const std::string&, const float*,
                                    const std::string&, float*, int, PermuteOptions);
template void einsum_permute<double>(const EinsumSpec&, const std::string&, const double*,
                                     const std::string&, double*, int, PermuteOptions);

}  // namespace ridgeline
