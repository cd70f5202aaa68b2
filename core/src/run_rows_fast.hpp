#pragma once
// A Run document's rows read with simdjson, the fast path of read_run_file (run_file.cpp).
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "ridgeline/core/run.hpp"

namespace ridgeline {

// One row through the field reader: Value is NlohmannValue or SimdValue (run_json.cpp).
template <typename Value>
CaseResult case_result_from(Value row, const std::string& origin, const std::string& path);

namespace detail {

// The Run's context (its rows handed to `each_row` in order, `delivered` counting them), or
// nullopt where the file is anything but strict JSON of the shape Ridgeline and Google
// Benchmark write, or holds anything the field reader refuses: the caller then reads it with
// the reader that names every error, skipping the rows already handed on. nullopt always
// where Ridgeline was built without simdjson.
std::optional<Run> read_run_rows_fast(const std::filesystem::path& file, const std::string& origin,
                                      const std::function<void(CaseResult&& row)>& each_row,
                                      std::size_t& delivered);

// Whether this build has the fast path.
bool fast_run_reader_built();

}  // namespace detail
}  // namespace ridgeline
