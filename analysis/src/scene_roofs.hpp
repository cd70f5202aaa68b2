#pragma once
// The roofs a roofline scene draws (roofline_scene.cpp): each machine's groups of roofs (one
// per device and thread count placed), at most so many of each, and what was left out why.
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ridgeline/analysis/roofline_scene.hpp"
#include "scene_axes.hpp"
#include "scene_labels.hpp"

namespace ridgeline::detail {

// "1t", or the device's name for a GPU.
std::string who(Device device, int threads);

struct Group {
  Device device = Device::cpu;
  int threads = 1;
  std::vector<ComputeCeiling> peaks;            // one per ceiling name
  std::map<std::string, MemoryCeiling> memory;  // level -> best
  std::vector<PowerCapRoof> caps;               // the GPU's, below its dtype's peak
  bool operator<(const Group& o) const {
    return std::tie(device, threads) < std::tie(o.device, o.threads);
  }
};

// Adds an omission once; `seen` keeps the lookup logarithmic however many there are.
class Omissions {
 public:
  explicit Omissions(RooflineScene& scene) : scene_(scene) {}
  void operator()(std::string what, std::string reason, bool result = false) {
    if (!seen_.insert({what, reason}).second) return;
    scene_.omitted.push_back({std::move(what), std::move(reason), result});
  }

 private:
  RooflineScene& scene_;
  std::set<std::pair<std::string, std::string>> seen_;
};

// Which machine's roofs each placement is under: all under one, or an overlay's several.
struct Machines {
  std::vector<SceneMachine> list;
  const std::vector<std::size_t>* machine_of = nullptr;   // none: all under list[0]
  const std::vector<PowerCapRoof>* power_caps = nullptr;  // the first machine's GPU
  bool under(std::size_t placement, std::size_t machine) const {
    return machine_of ? (*machine_of)[placement] == machine : machine == 0;
  }
  // "DRAM 1t" alone, "DRAM zen5-vm 1t" among several machines.
  std::string who(std::size_t machine, Device device, int threads) const {
    const std::string w = detail::who(device, threads);
    return list.size() > 1 ? list[machine].name + " " + w : w;
  }
};

// The roofs to draw: those of the placed results under machine `k` (or, with none, every
// f32/f64 peak).
std::vector<Group> roof_groups(const std::vector<RooflinePlacement>& placements,
                               const Machines& machines, std::size_t k, Omissions& omit);

// Roof lines (clipped to the plot), ridge points and the labels' texts of machine `k`.
void add_roofs(RooflineScene& scene, Omissions& omit, const std::vector<Group>& groups,
               const Machines& machines, std::size_t k, const Mapper& m,
               std::vector<scene::LabelRequest>& compute_labels,
               std::vector<scene::LabelRequest>& memory_labels);

}  // namespace ridgeline::detail
