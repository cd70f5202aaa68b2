// Built when RIDGELINE_WITH_PAPI=OFF: the collector exists and says how to enable it.
#include "ridgeline/collectors/papi.hpp"

namespace ridgeline {

namespace {
constexpr const char* kWhy =
    "built without PAPI; install libpapi-dev and reconfigure with -DRIDGELINE_WITH_PAPI=ON";

class PapiDisabled : public Collector {
 public:
  std::string name() const override { return "papi"; }
  Availability probe() override { return {false, kWhy}; }
  void start() override {}
  void stop() override {}
  std::vector<Metric> read() override { return {}; }
};
}  // namespace

std::vector<PapiComponent> papi_components(std::string& error) {
  error = kWhy;
  return {};
}

std::unique_ptr<Collector> make_papi_collector(const std::vector<std::string>&) {
  return std::make_unique<PapiDisabled>();
}

}  // namespace ridgeline
