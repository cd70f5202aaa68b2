#include "report_writer.hpp"

#include <fmt/format.h>

#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"

namespace ridgeline::cli {

void write_report(const ReportInput& input, const std::filesystem::path& path) {
  auto format = report_format_for(path);
  if (!format)
    throw InputError(fmt::format("-o {}: unknown report format '{}' (use .html, .md or .csv)",
                                 path.string(), path.extension().string()));
  switch (*format) {
    case ReportFormat::html:
      write_file_atomically(path, html_report(input));
      break;
    case ReportFormat::markdown:
      write_file_atomically(path, markdown_report(input));
      break;
    case ReportFormat::csv:
      write_file_atomically(path, csv_report(input));
      break;
  }
}

}  // namespace ridgeline::cli
