#include "ridgeline/analysis/note.hpp"

#include <fmt/format.h>

#include "ridgeline/analysis/usable.hpp"

namespace ridgeline {

std::string_view to_string(NoteKind kind) {
  switch (kind) {
    case NoteKind::level:
      return "level";
    case NoteKind::rate:
      return "rate";
    case NoteKind::dtype:
      return "dtype";
    case NoteKind::threads:
      return "threads";
    case NoteKind::machine:
      return "machine";
    case NoteKind::ceiling:
      return "ceiling";
    case NoteKind::origin:
      return "origin";
    case NoteKind::value:
      return "value";
    case NoteKind::noise:
      return "noise";
    case NoteKind::power_cap:
      return "power cap";
  }
  return "note";
}

std::string join_notes(const std::vector<Note>& notes, std::string_view separator) {
  std::string out;
  for (const auto& n : notes) {
    if (!out.empty()) out += separator;
    out += fmt::format("{}: {}", to_string(n.kind), n.text);
  }
  return out;
}

std::string describe_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "infinity" : "-infinity";
  if (value == 0) return "0";
  if (std::fpclassify(value) == FP_SUBNORMAL) return fmt::format("{:.3g} (subnormal)", value);
  return fmt::format("{:.6g}", value);
}

std::string unusable_because(double value) {
  if (usable(value)) return "";
  if (std::isnan(value)) return "is NaN";
  if (std::isinf(value)) return value > 0 ? "is infinite" : "is -infinity";
  if (value == 0) return "is 0";
  if (value < 0) return fmt::format("is negative ({})", describe_number(value));
  return fmt::format("is subnormal ({})", describe_number(value));
}

}  // namespace ridgeline
