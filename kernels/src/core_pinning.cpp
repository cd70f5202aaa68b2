#include "ridgeline/kernels/core_pinning.hpp"

#include <fmt/format.h>
#include <hwloc.h>
#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

namespace ridgeline {

namespace {

// Loaded once; hwloc's queries and binding calls on a loaded topology are thread-safe.
hwloc_topology_t topology() {
  static const hwloc_topology_t topo = [] {
    hwloc_topology_t t = nullptr;
    if (hwloc_topology_init(&t) != 0) return hwloc_topology_t{};
    if (hwloc_topology_load(t) != 0) {
      hwloc_topology_destroy(t);
      return hwloc_topology_t{};
    }
    return t;
  }();
  return topo;
}

}  // namespace

int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

CorePinning::CorePinning(int thread_index) {
  hwloc_topology_t topo = topology();
  if (!topo) {
    reason_ = "hwloc could not load the topology";
    return;
  }
  hwloc_bitmap_t saved = hwloc_bitmap_alloc();
  if (hwloc_get_cpubind(topo, saved, HWLOC_CPUBIND_THREAD) != 0) {
    reason_ = fmt::format("hwloc could not read this thread's CPU set: {}", std::strerror(errno));
    hwloc_bitmap_free(saved);
    return;
  }
  // The cores this thread may run on, in hwloc's order; the index-th one's first allowed PU.
  hwloc_obj_t core = nullptr;
  int seen = 0;
  while ((core = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_CORE, core)) != nullptr) {
    if (!hwloc_bitmap_intersects(core->cpuset, saved)) continue;
    if (seen++ < thread_index) continue;
    hwloc_bitmap_t pu = hwloc_bitmap_alloc();
    hwloc_bitmap_and(pu, core->cpuset, saved);
    hwloc_bitmap_singlify(pu);
    const int cpu = hwloc_bitmap_first(pu);
    if (hwloc_set_cpubind(topo, pu, HWLOC_CPUBIND_THREAD) == 0) {
      cpu_ = cpu;
      saved_ = saved;
    } else {
      reason_ = fmt::format("hwloc could not bind to CPU {}: {}", cpu, std::strerror(errno));
    }
    hwloc_bitmap_free(pu);
    break;
  }
  if (cpu_ < 0 && reason_.empty())
    reason_ = fmt::format("thread {} of a region, but this thread may run on {} core{}",
                          thread_index, seen, seen == 1 ? "" : "s");
  if (!saved_) hwloc_bitmap_free(saved);
}

CorePinning::~CorePinning() {
  if (!saved_) return;
  auto saved = static_cast<hwloc_bitmap_t>(saved_);
  hwloc_set_cpubind(topology(), saved, HWLOC_CPUBIND_THREAD);
  hwloc_bitmap_free(saved);
}

}  // namespace ridgeline
