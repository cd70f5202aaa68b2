// Bandwidth measurement (likwid-bench's load/store/copy/triad; STREAM's byte counting);
// the loops themselves are in stream_sweeps_<isa>.cpp.
// Every thread sweeps its own contiguous slice of each array, first touched by itself;
// the sweeps repeat inside one parallel region so small (cache-sized) sets are not
// dominated by thread start-up.
#include <omp.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "ridgeline/kernels/cache_sizes.hpp"
#include "ridgeline/kernels/ceilings.hpp"
#include "ridgeline/kernels/core_pinning.hpp"
#include "stream_sweeps.hpp"

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

std::string to_string(StreamIsa isa) {
  switch (isa) {
    case StreamIsa::scalar:
      return "scalar";
    case StreamIsa::avx2:
      return "avx2";
    case StreamIsa::avx512:
      return "avx512";
    case StreamIsa::neon:
      return "neon";
    case StreamIsa::sve:
      return "sve";
  }
  return "?";
}

// Each architecture's widths; the other architecture's are not built.
std::vector<StreamIsa> stream_isas(const CpuFeatures& cpu) {
  std::vector<StreamIsa> isas{StreamIsa::scalar};
#if defined(__x86_64__)
  if (cpu.avx2) isas.push_back(StreamIsa::avx2);
  if (cpu.avx512f && cpu.avx512vl) isas.push_back(StreamIsa::avx512);
#elif defined(__aarch64__)
  if (cpu.neon) isas.push_back(StreamIsa::neon);
  if (cpu.sve && cpu.sve_bits > 0) isas.push_back(StreamIsa::sve);
#endif
  return isas;
}

const ceilings::StreamSweeps& ceilings::sweeps_for(StreamIsa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case StreamIsa::avx2:
      return stream_sweeps_avx2;
    case StreamIsa::avx512:
      return stream_sweeps_avx512;
#elif defined(__aarch64__)
    case StreamIsa::neon:
      return stream_sweeps_neon;
    case StreamIsa::sve:
      return stream_sweeps_sve;
#endif
    case StreamIsa::scalar:
      return stream_sweeps_scalar;
    default:
      throw std::invalid_argument("measure_bandwidth: the " + to_string(isa) +
                                  " width is not built for this architecture");
  }
}

StreamArrays::StreamArrays(int threads, std::int64_t reserve_bytes)
    : threads_(std::max(1, threads)),
      reserve_bytes_(std::max<std::int64_t>(0, reserve_bytes)),
      mappings_(static_cast<std::size_t>(threads_)) {}

StreamArrays::~StreamArrays() {
  for (Mapping& m : mappings_)
    if (m.data) ::munmap(m.data, m.bytes);
}

std::array<double*, 4> StreamArrays::streams(int t, int count, std::int64_t elements) {
  constexpr std::int64_t kPage = 512;     // doubles
  constexpr std::int64_t kSkew = 17 * 8;  // doubles: 17 cache lines, so stream s starts s x 17
                                          // lines past a page boundary
  const std::int64_t stride = (elements + kPage - 1) / kPage * kPage + kSkew;
  const std::int64_t needed = static_cast<std::int64_t>(count) * stride;
  Mapping& m = mappings_[static_cast<std::size_t>(t)];
  if (needed * 8 > static_cast<std::int64_t>(m.bytes)) {
    std::int64_t bytes = std::max<std::int64_t>(reserve_bytes_, 4 * (kPage + kSkew) * 8);
    while (bytes < needed * 8) bytes *= 2;
    bytes = (bytes + 4095) / 4096 * 4096;
    void* data = ::mmap(nullptr, static_cast<std::size_t>(bytes), PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (data == MAP_FAILED) throw std::bad_alloc();
    if (m.data) ::munmap(m.data, m.bytes);
    m = {data, static_cast<std::size_t>(bytes), 0};
  }
  double* base = static_cast<double*>(m.data);
  if (needed > m.touched) {  // by the owning thread, so its pages sit near it
    std::fill(base + m.touched, base + needed, 1.0);
    m.touched = needed;
  }
  std::array<double*, 4> out{};
  for (int s = 0; s < count && s < 4; ++s) out[static_cast<std::size_t>(s)] = base + s * stride;
  return out;
}

BandwidthMeasurement measure_bandwidth(StreamKernel kernel, std::int64_t working_set_bytes,
                                       int threads, const std::vector<StreamIsa>& isas,
                                       double seconds, int trials) {
  StreamArrays arrays(threads);
  return measure_bandwidth(kernel, working_set_bytes, arrays, isas, seconds, trials);
}

BandwidthMeasurement measure_bandwidth(StreamKernel kernel, std::int64_t working_set_bytes,
                                       StreamArrays& arrays, const std::vector<StreamIsa>& isas,
                                       double seconds, int trials) {
  using clock = std::chrono::steady_clock;
  if (isas.empty()) throw std::invalid_argument("measure_bandwidth: no instruction width");
  const int threads = arrays.threads();
  const int streams = streams_of(kernel);
  // Elements per array per thread, a multiple of 64 (one 4 KiB page of doubles has 512).
  std::int64_t per_thread = working_set_bytes / (8 * streams * threads) / 64 * 64;
  per_thread = std::max<std::int64_t>(per_thread, 64);
  const std::int64_t n = per_thread * threads;
  // Each thread's array within its core's L1 data cache: the read with more adds in flight.
  const bool in_l1 = per_thread * 8 <= cache_sizes().l1d;

  double sink = 0;
  auto run = [&](const ceilings::StreamSweeps& sweep, std::int64_t sweeps) {
    auto start = clock::now();
#pragma omp parallel num_threads(threads) reduction(+ : sink)
    {
      const int t = omp_get_thread_num();
      // One thread per core, as likwid-bench runs. Binding and giving the CPU set back take
      // about 5 us per region, inside the timed interval: under 0.5% of the 1 ms calibration
      // runs, under 0.05% of a timed trial (10 ms and more).
      const CorePinning pinned(t);
      const std::array<double*, 4> a = arrays.streams(t, streams, per_thread);
#pragma omp barrier
      switch (kernel) {
        case StreamKernel::read:
          sink += (in_l1 ? sweep.read_in_l1 : sweep.read)(a[0], per_thread, sweeps);
          break;
        case StreamKernel::write:
          sweep.write(a[0], per_thread, 1.0 + static_cast<double>(sweeps), sweeps);
          break;
        case StreamKernel::copy:
          sweep.copy(a[0], a[1], per_thread, sweeps);
          break;
        case StreamKernel::triad:
          sweep.triad(a[0], a[1], a[2], a[3], per_thread, sweeps);
          break;
      }
    }
    return std::chrono::duration<double>(clock::now() - start).count();
  };
  run(ceilings::sweeps_for(isas.front()), 0);  // the pages first touched, outside any timing
  // Sweeps per timed run of each width, sized after the pages exist from a run long enough
  // (a millisecond) that the parallel region's start and end do not count; the widths share
  // the round's time.
  const double share = seconds / static_cast<double>(isas.size());
  std::vector<std::int64_t> sweeps;
  for (StreamIsa isa : isas) {
    std::int64_t probe_sweeps = 1;
    double t = run(ceilings::sweeps_for(isa), probe_sweeps);
    while (t < 1e-3 && t < share) {
      probe_sweeps *= 4;
      t = run(ceilings::sweeps_for(isa), probe_sweeps);
    }
    sweeps.push_back(std::max<std::int64_t>(
        1, static_cast<std::int64_t>(std::ceil(share * static_cast<double>(probe_sweeps) / t))));
  }

  BandwidthMeasurement m;
  for (StreamIsa isa : isas) m.per_isa.emplace_back(isa, 0.0);
  for (int trial = 0; trial < trials; ++trial)
    for (std::size_t i = 0; i < isas.size(); ++i) {
      const double t = run(ceilings::sweeps_for(isas[i]), sweeps[i]);
      const double bytes = static_cast<double>(n) * streams * 8 * static_cast<double>(sweeps[i]);
      m.per_isa[i].second = std::max(m.per_isa[i].second, bytes / t);
    }
  for (const auto& [isa, bw] : m.per_isa)
    if (bw > m.best) {
      m.best = bw;
      m.best_isa = isa;
    }
  volatile double keep = sink;
  (void)keep;
  return m;
}

}  // namespace ridgeline
