// Bandwidth kernels (likwid-bench's load/store/copy/triad; STREAM's byte counting).
// Every thread sweeps its own contiguous slice of each array, first touched by itself;
// the sweeps repeat inside one parallel region so small (cache-sized) sets are not
// dominated by thread start-up.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "ridgeline/kernels/ceilings.hpp"

namespace ridgeline {

std::string to_string(StreamKernel k) {
  switch (k) {
    case StreamKernel::read:
      return "read";
    case StreamKernel::write:
      return "write";
    case StreamKernel::copy:
      return "copy";
    case StreamKernel::triad:
      return "triad";
  }
  return "?";
}

int streams_of(StreamKernel k) {
  switch (k) {
    case StreamKernel::copy:
      return 2;
    case StreamKernel::triad:
      return 4;
    default:
      return 1;
  }
}

const std::vector<StreamKernel>& stream_kernels() {
  static const std::vector<StreamKernel> all{StreamKernel::read, StreamKernel::write,
                                             StreamKernel::copy, StreamKernel::triad};
  return all;
}

namespace {

// Sixteen partial sums (two or four vectors) so the adds' latency does not bound the
// loads; n is a multiple of 64.
[[gnu::target_clones("arch=x86-64-v4", "default")]] double sweep_read(const double* a,
                                                                      std::int64_t n) {
  double s[16] = {};
  for (std::int64_t i = 0; i < n; i += 16)
#pragma GCC unroll 16
    for (int j = 0; j < 16; ++j) s[j] += a[i + j];
  double sum = 0;
  for (double x : s) sum += x;
  return sum;
}

[[gnu::target_clones("arch=x86-64-v4", "default")]] void sweep_write(double* a, std::int64_t n,
                                                                     double v) {
  for (std::int64_t i = 0; i < n; ++i) a[i] = v;
}

[[gnu::target_clones("arch=x86-64-v4", "default")]] void sweep_copy(double* __restrict a,
                                                                    const double* __restrict b,
                                                                    std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) a[i] = b[i];
}

// likwid-bench's triad: A = B * C + D (four streams).
[[gnu::target_clones("arch=x86-64-v4", "default")]] void sweep_triad(double* __restrict a,
                                                                     const double* __restrict b,
                                                                     const double* __restrict c,
                                                                     const double* __restrict d,
                                                                     std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) a[i] = b[i] * c[i] + d[i];
}

struct FreeDeleter {
  void operator()(double* p) const { std::free(p); }
};

}  // namespace

double measure_bandwidth(StreamKernel kernel, std::int64_t working_set_bytes, int threads,
                         double seconds, int trials) {
  using clock = std::chrono::steady_clock;
  const int streams = streams_of(kernel);
  // Elements per array per thread, a multiple of 64 (one 4 KiB page of doubles has 512).
  std::int64_t per_thread = working_set_bytes / (8 * streams * threads) / 64 * 64;
  per_thread = std::max<std::int64_t>(per_thread, 64);
  const std::int64_t n = per_thread * threads;
  // Arrays start at different offsets within a page (s x 17 cache lines) so the streams
  // of one element do not all map to the same cache sets.
  const std::int64_t pad = 17 * 8;  // doubles
  std::unique_ptr<double, FreeDeleter> buffer(static_cast<double*>(std::aligned_alloc(
      4096, (static_cast<std::size_t>((n + pad) * streams) * 8 + 4095) / 4096 * 4096)));
  double* arrays[4] = {};
  for (int s = 0; s < streams; ++s) arrays[s] = buffer.get() + s * (n + pad);

  double sink = 0;
  auto run = [&](std::int64_t sweeps, bool first_touch) {
    auto start = clock::now();
#pragma omp parallel num_threads(threads) reduction(+ : sink)
    {
      const int t = omp_get_thread_num();
      const std::int64_t off = t * per_thread;
      if (first_touch)  // by the owning thread, so its pages sit near it
        for (int s = 0; s < streams; ++s)
          std::fill(arrays[s] + off, arrays[s] + off + per_thread, 1.0 + s);
#pragma omp barrier
      for (std::int64_t r = 0; r < sweeps; ++r) {
        switch (kernel) {
          case StreamKernel::read:
            sink += sweep_read(arrays[0] + off, per_thread);
            break;
          case StreamKernel::write:
            sweep_write(arrays[0] + off, per_thread, static_cast<double>(r));
            break;
          case StreamKernel::copy:
            sweep_copy(arrays[0] + off, arrays[1] + off, per_thread);
            break;
          case StreamKernel::triad:
            sweep_triad(arrays[0] + off, arrays[1] + off, arrays[2] + off, arrays[3] + off,
                        per_thread);
            break;
        }
        asm volatile("" ::: "memory");
      }
    }
    return std::chrono::duration<double>(clock::now() - start).count();
  };
  run(0, true);
  // Sweeps per timed run, sized from one sweep after the pages exist.
  const double one = run(1, false);
  const std::int64_t sweeps =
      std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(seconds / one)));
  double best = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const double t = run(sweeps, false);
    const double bytes = static_cast<double>(n) * streams * 8 * static_cast<double>(sweeps);
    best = std::max(best, bytes / t);
  }
  volatile double keep = sink;
  (void)keep;
  return best;
}

}  // namespace ridgeline
