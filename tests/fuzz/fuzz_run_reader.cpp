// The Run reader on any bytes: it returns a Run or throws an InputError (one line naming
// the file and the field). Anything else — another exception, a crash, a sanitizer
// report, a hang, a runaway allocation — is a finding.
#include "fuzz_input_file.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/run_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ridgeline::fuzz::InputFile file;
  try {
    const ridgeline::Run run = ridgeline::read_run_file(file.write(data, size));
    (void)run;
  } catch (const ridgeline::InputError&) {
  }
  return 0;
}
