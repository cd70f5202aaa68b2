#include "ridgeline/core/metric.hpp"

#include <array>

#include "ridgeline/core/case_result.hpp"

namespace ridgeline {

namespace {
constexpr std::array<std::pair<MetricSource, std::string_view>, 5> kSources{
    {{MetricSource::counted, "counted"},
     {MetricSource::timed, "timed"},
     {MetricSource::analytic, "analytic"},
     {MetricSource::derived, "derived"},
     {MetricSource::sampled, "sampled"}}};

constexpr std::array<std::pair<Disposition, std::string_view>, 6> kDispositions{
    {{Disposition::passed, "passed"},
     {Disposition::incorrect, "incorrect"},
     {Disposition::not_supported, "not_supported"},
     {Disposition::not_verified, "not_verified"},
     {Disposition::crashed, "crashed"},
     {Disposition::timed_out, "timed_out"}}};

template <typename Table, typename Enum>
std::string_view name_of(const Table& table, Enum value) {
  for (auto& [e, name] : table)
    if (e == value) return name;
  return "?";
}

template <typename Enum, typename Table>
std::optional<Enum> value_of(const Table& table, std::string_view text) {
  for (auto& [e, name] : table)
    if (name == text) return e;
  return std::nullopt;
}
}  // namespace

std::string_view to_string(MetricSource source) {
  return name_of(kSources, source);
}
std::optional<MetricSource> parse_metric_source(std::string_view text) {
  return value_of<MetricSource>(kSources, text);
}
std::string_view to_string(Disposition d) {
  return name_of(kDispositions, d);
}
std::optional<Disposition> parse_disposition(std::string_view text) {
  return value_of<Disposition>(kDispositions, text);
}

}  // namespace ridgeline
