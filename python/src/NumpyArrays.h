//===- NumpyArrays.h - numpy arrays as tcc::Array and back, no copy -*- C++
//-*-===//
//
// The zero-copy border between Python and the runtime: a numpy array (or any
// DLPack / buffer-protocol host array) becomes a tcc::Array over the same
// memory that keeps the Python object alive, and a tcc::Array becomes a
// numpy array over its buffer that keeps the buffer alive (after the shared
// variable or the function that made it is gone).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_PYTHON_NUMPYARRAYS_H
#define TCC_PYTHON_NUMPYARRAYS_H

#include "runtime/core/Array.h"
#include "runtime/core/Status.h"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <string>

namespace tcc::python {

/// A host array of any dtype and strides, never converted by nanobind (the
/// argument is bound with .noconvert(): a silent copy would lose in-place
/// writes).
using HostNdArray = nanobind::ndarray<nanobind::device::cpu>;

/// The tcc dtype of a numpy dtype name ("float32", ...); TypeError for one
/// tcc has no counterpart of.
DType dtypeFromName(const std::string &name);
/// "float32", "float64", "int32", "int64", "bool", "float16".
const char *dtypeToName(DType dtype);

/// What wrapping a host array found about its layout.
struct Wrapped {
  Array array;
  bool contiguous = false;
  bool aligned = false;
};

/// Loads numpy's C API (the module's initialization; an ImportError raised
/// when numpy cannot be imported).
void importNumpy();

/// A tcc::Array over the memory of `value`, a numpy array or any host array
/// nanobind reads (DLPack, the buffer protocol), never converted nor
/// copied; `value` stays alive while the Array's buffer does. A dtype tcc
/// lacks is a TypeError.
Wrapped wrapHost(nanobind::handle value);

/// A numpy array over `array`'s elements, no copy, keeping its buffer
/// alive; writeable.
nanobind::object toNumpy(const Array &array);

/// Raises the Python exception for an error status: TypeError for a dtype
/// mismatch, MemoryError for OutOfMemory, ValueError otherwise (the message
/// is tcc's).
[[noreturn]] void raise(const Status &status);

/// The value of `result`, or the status raised.
template <class T> T valueOrRaise(Result<T> result) {
  if (!result.ok())
    raise(result.status());
  return std::move(result).value();
}

} // namespace tcc::python

#endif // TCC_PYTHON_NUMPYARRAYS_H
