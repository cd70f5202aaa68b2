// The machine-model reader on any bytes: a MachineModel or an InputError, nothing else.
#include "fuzz_input_file.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/machine_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ridgeline::fuzz::InputFile file;
  try {
    const ridgeline::MachineModel machine = ridgeline::read_machine_file(file.write(data, size));
    (void)machine;
  } catch (const ridgeline::InputError&) {
  }
  return 0;
}
