#pragma once
// How an enum is spelled, one mechanism for every module: a table with a row per value, each
// the value and its words, looked up both ways here. The vocabulary spells its words so
// (vocabulary.cpp), and so does every other enum that is written out (a note's kind, a
// comparison's verdict), instead of a switch per function.
#include <optional>
#include <string_view>

namespace ridgeline {

template <typename Enum>
struct Spelling {
  Enum value;
  std::string_view json;   // in files and on the command line (and to people, where no `human`)
  std::string_view human;  // the one people read in reports and the dashboard, where it differs
};

// The row of `value` in `table`: any table of rows with a `value`, a row per value.
template <typename Table, typename Enum>
constexpr const auto& spelling_of(const Table& table, Enum value) {
  for (const auto& s : table)
    if (s.value == value) return s;
  return *std::begin(table);  // unreachable where every value has its row (spelled_in_order)
}

// The value whose `json` spelling is `text`; nullopt for none.
template <typename Enum, typename Table>
constexpr std::optional<Enum> value_of(const Table& table, std::string_view text) {
  for (const auto& s : table)
    if (s.json == text) return s.value;
  return std::nullopt;
}

// Whether `table` has a row for every value of an enum whose values run 0 .. `last`, in
// that order: checked where a table is defined (static_assert), so a value added to the enum
// without its spelling does not compile.
template <typename Table, typename Enum>
constexpr bool spelled_in_order(const Table& table, Enum last) {
  int i = 0;
  for (const auto& s : table)
    if (static_cast<int>(s.value) != i++) return false;
  return i == static_cast<int>(last) + 1;
}

}  // namespace ridgeline
