//===- Module.cpp - the extension module tcc._tcc -------------------------===//
//
// The binding of tcc that the Python package `tcc` (python/tcc) is written
// on: the managed memory space's shared variables, graphs compiled in
// process (CompilerBinding.cpp), compiled functions called with numpy
// arrays, no copy (RuntimeBinding.cpp, NumpyArrays.cpp), and data-parallel
// jobs (DistBinding.cpp).
//
//===----------------------------------------------------------------------===//

#include "NumpyArrays.h"

#include <nanobind/nanobind.h>

namespace tcc::python {
void bindRuntime(nanobind::module_ &m);
void bindCompiler(nanobind::module_ &m);
void bindDist(nanobind::module_ &m);
} // namespace tcc::python

NB_MODULE(_tcc, m) {
  m.doc() = "tcc's C++ compiler and runtime, for the Python package tcc";
  tcc::python::importNumpy();
  tcc::python::bindRuntime(m);
  tcc::python::bindCompiler(m);
  tcc::python::bindDist(m);
}
