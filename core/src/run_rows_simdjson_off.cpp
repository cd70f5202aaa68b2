// Built without simdjson (RIDGELINE_WITH_SIMDJSON=OFF): every run is read by nlohmann's reader.
#include "run_rows_fast.hpp"

namespace ridgeline::detail {

std::optional<Run> read_run_rows_fast(const std::filesystem::path&, const std::string&,
                                      const std::function<void(CaseResult&&)>&, std::size_t&) {
  return std::nullopt;
}

bool fast_run_reader_built() {
  return false;
}

}  // namespace ridgeline::detail
