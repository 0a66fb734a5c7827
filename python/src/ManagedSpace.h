//===- ManagedSpace.h - the process's managed memory space ----*- C++ -*-===//
//
// The one tcc::Runtime of the Python process (RuntimeBinding.cpp), as the
// compiler binding needs it: a compiled Program is loaded into it and its
// function handed to Python, next to every shared variable it reads.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_PYTHON_MANAGEDSPACE_H
#define TCC_PYTHON_MANAGEDSPACE_H

#include "runtime/exec/Program.h"
#include "runtime/exec/Runtime.h"

#include <nanobind/nanobind.h>

#include <memory>
#include <string>

namespace tcc::python {

/// Loads `program` into the space and returns its function `name` as the
/// module's Function; raises the runtime's error (a shared variable of
/// another type, a name already loaded) as a Python exception.
nanobind::object loadProgram(std::shared_ptr<Program> program,
                             const std::string &name);

/// The space's runtime; raises ValueError once the interpreter is exiting
/// (it was shut down).
Runtime &managedRuntime();

} // namespace tcc::python

#endif // TCC_PYTHON_MANAGEDSPACE_H
