#include "ridgeline/kernels/cache_sizes.hpp"

#include <hwloc.h>

#include <optional>

namespace ridgeline {

namespace {
// Size of the first cache of `type` above the first core, and how many cores share it.
bool cache_of(hwloc_topology_t topo, hwloc_obj_type_t type, std::int64_t& size, int* sharing) {
  hwloc_obj_t obj = hwloc_get_obj_by_type(topo, type, 0);
  if (!obj || !obj->attr) return false;
  size = static_cast<std::int64_t>(obj->attr->cache.size);
  if (sharing)
    *sharing =
        static_cast<int>(hwloc_get_nbobjs_inside_cpuset_by_type(topo, obj->cpuset, HWLOC_OBJ_CORE));
  return size > 0;
}

std::optional<CacheSizes>& replaced_sizes() {
  static std::optional<CacheSizes> sizes;
  return sizes;
}

}  // namespace

const CacheSizes& hwloc_cache_sizes() {
  static const CacheSizes sizes = [] {
    CacheSizes s;
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0) {
      s.source = "hwloc could not load the topology; using defaults";
      return s;
    }
    bool ok = cache_of(topo, HWLOC_OBJ_L1CACHE, s.l1d, nullptr);
    ok = cache_of(topo, HWLOC_OBJ_L2CACHE, s.l2, nullptr) && ok;
    int sharing = 1;
    if (cache_of(topo, HWLOC_OBJ_L3CACHE, s.l3, &sharing)) s.l3_sharing = sharing > 0 ? sharing : 1;
    hwloc_topology_destroy(topo);
    s.source = ok ? "hwloc" : "hwloc reported no L1/L2 cache; using defaults";
    return s;
  }();
  return sizes;
}

const CacheSizes& cache_sizes() {
  const std::optional<CacheSizes>& replaced = replaced_sizes();
  return replaced ? *replaced : hwloc_cache_sizes();
}

void use_cache_sizes(const CacheSizes& sizes) {
  replaced_sizes() = sizes;
}

}  // namespace ridgeline
