#pragma once
#include <string>
#include <string_view>

namespace ridgeline {

// Every string that comes from a document passes through one of these before it is
// written into a report.
std::string escape_html(std::string_view text);
std::string escape_markdown_cell(std::string_view text);
std::string escape_csv_field(std::string_view text);

}  // namespace ridgeline
