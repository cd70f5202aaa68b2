// Reading the journal `ridgeline run` appends while it runs (one benchmark entry per
// line), so that a run stopped by a kill opens like any Run.
#include <fmt/format.h>

#include "ridgeline/core/error.hpp"
#include "ridgeline/core/json_file.hpp"
#include "ridgeline/core/run_json.hpp"

namespace ridgeline {

namespace {

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

bool blank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

}  // namespace

bool is_journal(const std::filesystem::path& file, std::string_view text) {
  if (file.extension() == ".jsonl") return true;
  // A Run or Google Benchmark file is one document; a journal's first line is a whole
  // benchmark entry on its own.
  const std::string_view first = text.substr(0, text.find('\n'));
  if (first.size() == text.size() || blank(first)) return false;
  try {
    DuplicateKeys ignored;  // noted when the journal is read
    const nlohmann::json j = parse_json_text(first, file.string(), nullptr, &ignored);
    return j.is_object() && j.contains("name") && !j.contains("benchmarks");
  } catch (const InputError&) {
    return false;
  }
}

Run run_from_journal(std::string_view text, const std::string& origin) {
  const std::vector<std::string_view> lines = lines_of(text);
  std::size_t last = lines.size();
  while (last > 0 && blank(lines[last - 1])) --last;
  // The runner appends each line with its newline in one write: a last line without one
  // was cut by a kill.
  const bool cut_at_end = !text.empty() && text.back() != '\n';
  Run run;
  DuplicateKeys duplicates;  // over every line, each path prefixed with its line
  for (std::size_t i = 0; i < last; ++i) {
    if (blank(lines[i])) continue;
    const std::string where = fmt::format("{}: line {}", origin, i + 1);
    nlohmann::json j;
    DuplicateKeys in_line;
    try {
      j = parse_json_text(lines[i], where, nullptr, &in_line);
    } catch (const InputError&) {
      if (i + 1 == last && cut_at_end) {
        run.notes.push_back(fmt::format(
            "{}: the last line was cut short (the run was killed while writing it): left out",
            where));
        break;
      }
      throw;
    }
    for (const auto& path : in_line.first)
      if (duplicates.first.size() < 3)
        duplicates.first.push_back(fmt::format("line {}: {}", i + 1, path));
    duplicates.count += in_line.count;
    run.benchmarks.push_back(case_result_from_json(j, where, ""));
  }
  if (duplicates.count) run.notes.push_back(duplicates.note(origin));
  run.notes.push_back(fmt::format(
      "{}: read from the run's journal ({} results): it holds no context, so no machine "
      "model, collector status or einsum network (each step's cases are reported, not the "
      "paths they make: the Run document has them)",
      origin, run.benchmarks.size()));
  return run;
}

}  // namespace ridgeline
