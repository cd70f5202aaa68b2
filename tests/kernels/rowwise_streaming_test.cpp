// Streamed y in the fused norms and softmax (non-temporal stores past the cache,
// rowwise_ops.hpp): the same bits as plain stores on every ISA this CPU runs, and the
// threshold that decides it.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "ops/rowwise_ops.hpp"
#include "ridgeline/kernels/cpu_features.hpp"
#include "rowwise_test_support.hpp"

namespace ridgeline::ops {
namespace {

using namespace testing_support;

// Streamed y (non-temporal stores, where the working set is past the cache) is bit for bit
// the plain one: the same arithmetic, another store. y starts on a cache line here and at an
// offset of one float, so that rows are streamed (aligned starts), stored plainly (the others)
// or mixed row by row (cols = 1000: every other row is aligned).
TEST(RowwiseStreaming, StreamedNormsAndSoftmaxAreBitForBitThePlainOnes) {
  int isas = 0;
  for (Isa isa : {Isa::avx512, Isa::avx2, Isa::sve, Isa::neon, Isa::scalar}) {
    if (!isa_available(isa)) continue;
    ++isas;
    for (std::int64_t rows : kRows)
      for (std::int64_t cols : kCols)
        for (std::size_t offset : {0, 1})
          for (int threads : {1, 2}) {
            SCOPED_TRACE(testing::Message()
                         << to_string(isa) << ", " << rows << " x " << cols << ", y offset "
                         << offset << " floats, threads " << threads);
            const std::size_t n = static_cast<std::size_t>(rows * cols);
            const auto x = normal(n, 0.5f, 2.0f, static_cast<unsigned>(n));
            const auto gamma = normal(static_cast<std::size_t>(cols), 1.0f, 0.5f, 7);
            const auto beta = normal(static_cast<std::size_t>(cols), 0.0f, 1.0f, 8);
            std::vector<float> buf[2];
            for (bool stream : {false, true}) {
              const ScopedStreamingThreshold scope(stream ? 0 : INT64_MAX);
              ASSERT_EQ(streams_output(1), stream);
              std::vector<float> space(3 * n + 32, kNaN);
              float* y =
                  reinterpret_cast<float*>((reinterpret_cast<std::uintptr_t>(space.data()) + 63) &
                                           ~std::uintptr_t{63}) +
                  offset;
              layernorm_fused_isa(isa, x.data(), gamma.data(), beta.data(), y, rows, cols, 1e-5f,
                                  threads);
              rmsnorm_fused_isa(isa, x.data(), gamma.data(), y + n, rows, cols, 1e-5f, threads);
              softmax_fused_isa(isa, x.data(), y + 2 * n, rows, cols, threads);
              buf[stream].assign(y, y + 3 * n);
            }
            for (std::size_t i = 0; i < 3 * n; ++i)
              ASSERT_EQ(std::bit_cast<std::uint32_t>(buf[1][i]),
                        std::bit_cast<std::uint32_t>(buf[0][i]))
                  << (i < n       ? "layernorm"
                      : i < 2 * n ? "rmsnorm"
                                  : "softmax")
                  << " element " << i % n;
          }
  }
  EXPECT_GT(isas, 0);  // scalar runs everywhere
}

// Softmax streams y except with AVX-512 on AMD family 1Ah (Zen 5), where plain stores
// measured faster; the CPU's family is CPUID's.
TEST(RowwiseStreaming, SoftmaxStreamsExceptWithAvx512OnZen5) {
  EXPECT_TRUE(softmax_streams_y(Isa::avx2));
  EXPECT_TRUE(softmax_streams_y(Isa::scalar));
  const CpuFeatures& f = cpu_features();
  EXPECT_EQ(softmax_streams_y(Isa::avx512), !(f.amd && f.family >= 0x1A))
      << "amd " << f.amd << ", family " << f.family;
  // /proc/cpuinfo's "cpu family" is the same display family CPUID gives (x86-64; under
  // qemu-user an AArch64 build reads the x86 host's).
#if defined(__x86_64__)
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("cpu family", 0) == 0) {
      EXPECT_EQ(std::stoi(line.substr(line.find(':') + 1)), f.family) << line;
      break;
    }
#endif
}

TEST(RowwiseStreaming, ThresholdIsTheCacheAtMost96MiBAndScoped) {
  const std::int64_t initial = streaming_threshold();
  EXPECT_GT(initial, 0);
  EXPECT_LE(initial, std::int64_t{96} << 20);
  EXPECT_FALSE(streams_output(initial));
  EXPECT_TRUE(streams_output(initial + 1));
  {
    const ScopedStreamingThreshold scope(-5);  // clamped: every working set streams
    EXPECT_EQ(streaming_threshold(), 0);
    EXPECT_TRUE(streams_output(1));
  }
  EXPECT_EQ(streaming_threshold(), initial);
}

}  // namespace
}  // namespace ridgeline::ops
