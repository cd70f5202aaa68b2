// Built without RIDGELINE_WITH_LIKWID: the collector says how to enable it; markers are off.
#include "ridgeline/collectors/likwid.hpp"

namespace ridgeline {

namespace {
class LikwidDisabled : public Collector {
 public:
  std::string name() const override { return "likwid"; }
  Availability probe() override {
    return {false, RIDGELINE_LIKWID_OFF_REASON};  // collectors/CMakeLists.txt says why
  }
  void start() override {}
  void stop() override {}
  std::vector<Metric> read() override { return {}; }
};
}  // namespace

std::unique_ptr<Collector> make_likwid_collector(const std::vector<std::string>&) {
  return std::make_unique<LikwidDisabled>();
}
void likwid_marker_init() {}
void likwid_marker_start(const std::string&, int) {}
void likwid_marker_stop(const std::string&, int) {}
void likwid_marker_close() {}

}  // namespace ridgeline
