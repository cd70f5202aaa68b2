#include "ridgeline/analysis/note.hpp"

#include <fmt/format.h>

#include "ridgeline/analysis/usable.hpp"
#include "ridgeline/core/spelling.hpp"

namespace ridgeline {

namespace {

constexpr Spelling<NoteKind> kNoteKinds[] = {
    {NoteKind::level, "level", {}},     {NoteKind::rate, "rate", {}},
    {NoteKind::dtype, "dtype", {}},     {NoteKind::threads, "threads", {}},
    {NoteKind::machine, "machine", {}}, {NoteKind::ceiling, "ceiling", {}},
    {NoteKind::origin, "origin", {}},   {NoteKind::value, "value", {}},
    {NoteKind::noise, "noise", {}},     {NoteKind::power_cap, "power cap", {}},
};
static_assert(spelled_in_order(kNoteKinds, NoteKind::power_cap));

}  // namespace

std::string_view to_string(NoteKind kind) {
  return spelling_of(kNoteKinds, kind).json;
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
