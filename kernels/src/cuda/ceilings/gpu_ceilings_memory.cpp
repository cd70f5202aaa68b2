// Bandwidth ceilings of the GPU: HBM (a copy kernel beside cudaMemcpy), L2, L1, shared
// memory and host<->device over pinned memory.
#include <memory>

#include "../cuda_check.hpp"
#include "ceiling_kernels.hpp"
#include "gpu_ceiling_timing.hpp"
#include "ridgeline/core/vocabulary.hpp"

namespace ridgeline {

namespace {
const std::string kHbm(display_name(MemoryLevel::main, Device::gpu));
const std::string kL2(display_name(MemoryLevel::l2, Device::gpu));
const std::string kL1(display_name(MemoryLevel::l1, Device::gpu));
}  // namespace

void measure_memory_ceilings(const CeilingContext& c, const MeasureCeiling& measure) {
  const int sms = c.device.multiprocessors;
  void* sink = c.sink;
  const cudaStream_t s = c.stream;

  // HBM: two arrays of up to 2 GiB each (a quarter of free memory at most), read and
  // written bytes counted as a device-to-device copy moves them.
  std::size_t free_bytes = 0, total_bytes = 0;
  RIDGELINE_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t big = std::min<std::size_t>(std::size_t(2) << 30, free_bytes / 4) / 4096 * 4096;
  std::unique_ptr<DeviceBuffer> x, y;
  const auto arrays = [&] {
    if (x) return;
    x = std::make_unique<DeviceBuffer>(big);
    y = std::make_unique<DeviceBuffer>(big);
    RIDGELINE_CUDA(cudaMemsetAsync(x->get(), 0, big, s));
    RIDGELINE_CUDA(cudaMemsetAsync(y->get(), 0, big, s));
  };
  const auto copy_bytes = static_cast<std::int64_t>(2 * big);
  measure("HBM.copy", [&] {
    arrays();
    return memory_ceiling(kHbm, "copy",
                          "copy kernel, 16-byte vectors, 4 loads in flight a thread, streaming "
                          "(read + write counted)",
                          best_rate(c,
                                    [&] {
                                      launch_copy(y->get(), x->get(), big, sms * 8, s);
                                      return 2.0 * big;
                                    }),
                          copy_bytes);
  });
  measure("HBM.copy", [&] {
    arrays();
    return memory_ceiling(kHbm, "copy", "cudaMemcpyAsync device to device (read + write counted)",
                          best_rate(c,
                                    [&] {
                                      RIDGELINE_CUDA(cudaMemcpyAsync(y->get(), x->get(), big,
                                                                     cudaMemcpyDeviceToDevice, s));
                                      return 2.0 * big;
                                    }),
                          copy_bytes);
  });
  measure("HBM.read", [&] {
    arrays();
    return memory_ceiling(kHbm, "read", "sum kernel, 16-byte vectors",
                          best_rate(c,
                                    [&] {
                                      launch_read(x->get(), big, 1, sink, sms * 8, s);
                                      return 1.0 * big;
                                    }),
                          static_cast<std::int64_t>(big));
  });
  x.reset();
  y.reset();

  measure("L2.read", [&] {
    // Under half of L2: Hopper's L2 is two partitions, and a line may live in the far one.
    const std::size_t bytes = static_cast<std::size_t>(c.device.l2_bytes) * 2 / 5 / 4096 * 4096;
    DeviceBuffer buffer(bytes);
    RIDGELINE_CUDA(cudaMemsetAsync(buffer.get(), 0, bytes, s));
    const int passes = scaled_repeats(c, [&] {
      launch_read(buffer.get(), bytes, 1, sink, sms * 8, s);
      return 1.0 * bytes;
    });
    return memory_ceiling(kL2, "read", "sum kernel, 16-byte ld.global.cg, buffer 40% of L2",
                          best_rate(c,
                                    [&] {
                                      launch_read(buffer.get(), bytes, passes, sink, sms * 8, s);
                                      return 1.0 * bytes * passes;
                                    }),
                          static_cast<std::int64_t>(bytes));
  });
  measure("L1.read", [&] {
    // Two blocks per multiprocessor, each re-reading its own 32 KiB: L1 hits after the
    // first pass.
    constexpr std::size_t per_block = 32 * 1024;
    const int blocks = sms * 2;
    DeviceBuffer buffer(per_block * blocks);
    RIDGELINE_CUDA(cudaMemsetAsync(buffer.get(), 0, buffer.bytes(), s));
    const int passes = 64 * scaled_repeats(c, [&] {
                         return launch_l1_read(buffer.get(), per_block, 64, sink, blocks, s);
                       });
    return memory_ceiling(
        kL1, "read", "32 KiB per block re-read through L1 (ld.global.ca), 2 blocks per SM",
        best_rate(c,
                  [&] { return launch_l1_read(buffer.get(), per_block, passes, sink, blocks, s); }),
        static_cast<std::int64_t>(per_block));
  });
  measure("SMEM.read", [&] {
    const int passes =
        64 * scaled_repeats(c, [&] { return launch_shared_read(sms * 4, 64, sink, s); });
    return memory_ceiling(
        "SMEM", "read", "32 KiB per block read as 16-byte vectors",
        best_rate(c, [&] { return launch_shared_read(sms * 4, passes, sink, s); }), 32 * 1024);
  });
  for (const bool to_device : {true, false}) {
    const std::string kernel = to_device ? "h2d" : "d2h";
    measure("PCIe." + kernel, [&] {
      const std::size_t bytes = std::size_t(256) << 20;
      void* host = nullptr;
      RIDGELINE_CUDA(cudaMallocHost(&host, bytes));
      const std::unique_ptr<void, cudaError_t (*)(void*)> pinned(host, &cudaFreeHost);
      DeviceBuffer d(bytes);
      return memory_ceiling(
          "PCIe", kernel, "cudaMemcpyAsync of 256 MiB pinned host memory",
          best_rate(c,
                    [&] {
                      RIDGELINE_CUDA(cudaMemcpyAsync(
                          to_device ? d.get() : host, to_device ? host : d.get(), bytes,
                          to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, s));
                      return 1.0 * bytes;
                    }),
          static_cast<std::int64_t>(bytes));
    });
  }
}

}  // namespace ridgeline
