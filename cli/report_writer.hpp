#pragma once
#include <filesystem>

#include "ridgeline/reports/report.hpp"

namespace ridgeline::cli {

// Writes the report in the format its extension names; an unknown extension is an
// InputError. Atomic, like every file Ridgeline writes.
void write_report(const ReportInput& input, const std::filesystem::path& path);

}  // namespace ridgeline::cli
