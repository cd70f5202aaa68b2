#include <pybind11/pybind11.h>

#include "bindings.hpp"
#include "ridgeline/core/error.hpp"

PYBIND11_MODULE(_ridgeline, m) {
  m.doc() = "Ridgeline's C++ side: the harness, the analysis and the reports (docs/python.md)";
  // Bad input is one line naming what was wrong (the CLI's exit 2): a ValueError here.
  pybind11::register_exception<ridgeline::InputError>(m, "InputError", PyExc_ValueError);
  ridgeline::python::bind_measure(m);
  ridgeline::python::bind_documents(m);
  ridgeline::python::bind_suites(m);
}
