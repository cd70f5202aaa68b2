// Built without CUDA: the collector says so and which option turns it on.
#include "ridgeline/collectors/cupti.hpp"

namespace ridgeline {

namespace {
const char* const kWhy = "built without CUDA (" RIDGELINE_CUDA_OFF_REASON ")";

class CuptiDisabled final : public Collector {
 public:
  std::string name() const override { return "cupti"; }
  Availability probe() override { return {false, kWhy}; }
  void start() override {}
  void stop() override {}
  std::vector<Metric> read() override { return {}; }
};
}  // namespace

CuptiConfigCheck check_cupti_config(const std::string&, const std::vector<std::string>&) {
  CuptiConfigCheck c;
  c.reason = kWhy;
  return c;
}

std::unique_ptr<Collector> make_cupti_collector(const std::vector<std::string>&) {
  return std::make_unique<CuptiDisabled>();
}

}  // namespace ridgeline
