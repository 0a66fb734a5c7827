//===- NumpyArrays.cpp - numpy arrays as tcc::Array and back, no copy -----===//

#include "NumpyArrays.h"

#include <Python.h>

// numpy's C API, in this file only: the wrapping and the making of numpy
// arrays on every call are the binding's cost of a call (docs/
// performance.md), and nanobind's general path (the buffer protocol in,
// numpy.asarray of a DLPack-capable object out) costs several times more.
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <cstdint>
#include <memory>
#include <optional>

namespace nb = nanobind;

namespace tcc::python {

DType dtypeFromName(const std::string &name) {
  if (name == "float32")
    return DType::F32;
  if (name == "float64")
    return DType::F64;
  if (name == "int32")
    return DType::I32;
  if (name == "int64")
    return DType::I64;
  if (name == "bool")
    return DType::I1;
  if (name == "float16")
    return DType::F16;
  throw nb::type_error(("tcc has no dtype '" + name +
                        "' (float16, float32, float64, int32, int64, bool)")
                           .c_str());
}

const char *dtypeToName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "float32";
  case DType::F64:
    return "float64";
  case DType::I32:
    return "int32";
  case DType::I64:
    return "int64";
  case DType::I1:
    return "bool";
  case DType::F16:
    return "float16";
  case DType::BF16:
    return "bfloat16";
  }
  return "?";
}

/// The tcc dtype of a DLPack dtype, or TypeError.
static DType dtypeOf(nb::dlpack::dtype d) {
  using Code = nb::dlpack::dtype_code;
  if (d.lanes == 1) {
    if (d.code == uint8_t(Code::Float) && d.bits == 32)
      return DType::F32;
    if (d.code == uint8_t(Code::Float) && d.bits == 64)
      return DType::F64;
    if (d.code == uint8_t(Code::Float) && d.bits == 16)
      return DType::F16;
    if (d.code == uint8_t(Code::Int) && d.bits == 32)
      return DType::I32;
    if (d.code == uint8_t(Code::Int) && d.bits == 64)
      return DType::I64;
    if (d.code == uint8_t(Code::Bool) && d.bits == 8)
      return DType::I1;
  }
  throw nb::type_error("an array of a dtype tcc lacks (tcc has float16, "
                       "float32, float64, int32, int64 and bool)");
}

void importNumpy() {
  if (_import_array() < 0)
    throw nb::python_error();
}

/// The reference an Array's buffer holds on the Python object its memory
/// belongs to. It goes with the last copy of the deleter, called or not (a
/// wrap that fails drops it too), and with the GIL: a buffer may die on a
/// thread that runs a call.
static Buffer::Deleter holdOwner(nb::handle owner) {
  std::shared_ptr<PyObject> ref(owner.inc_ref().ptr(), [](PyObject *o) {
    if (!Py_IsInitialized() || _Py_IsFinalizing())
      return; // the interpreter is gone: nothing to release into
    PyGILState_STATE state = PyGILState_Ensure();
    Py_DECREF(o);
    PyGILState_Release(state);
  });
  return [ref = std::move(ref)](void *) {};
}

/// Wraps `data` with its layout; `release` drops the owner's reference.
static Wrapped wrapLayout(void *data, DType dtype, Shape shape, Strides strides,
                          Buffer::Deleter release) {
  size_t itemsize = dtypeSize(dtype);
  bool contiguous = true;
  int64_t expected = int64_t(itemsize);
  for (size_t k = shape.size(); k-- > 0;) {
    if (shape[k] != 1 && strides[k] != expected)
      contiguous = false;
    expected *= shape[k];
  }
  Result<Array> wrapped =
      Array::wrap(data, dtype, shape, strides, std::move(release));
  if (!wrapped.ok())
    raise(wrapped.status());
  Wrapped w;
  w.array = std::move(wrapped).value();
  w.contiguous = contiguous;
  w.aligned = reinterpret_cast<uintptr_t>(data) % itemsize == 0;
  return w;
}

/// The tcc dtype of a numpy array's, or nullopt for one that nanobind's
/// path handles (or rejects): byte-swapped, or a kind tcc lacks.
static std::optional<DType> numpyDtype(PyArrayObject *a) {
  PyArray_Descr *d = PyArray_DESCR(a);
  if (PyArray_ISBYTESWAPPED(a))
    return std::nullopt;
  int elsize = int(PyArray_ITEMSIZE(a));
  switch (d->kind) {
  case 'f':
    if (elsize == 4)
      return DType::F32;
    if (elsize == 8)
      return DType::F64;
    if (elsize == 2)
      return DType::F16;
    break;
  case 'i':
    if (elsize == 4)
      return DType::I32;
    if (elsize == 8)
      return DType::I64;
    break;
  case 'b':
    if (elsize == 1)
      return DType::I1;
    break;
  }
  return std::nullopt;
}

Wrapped wrapHost(nb::handle value) {
  if (PyArray_Check(value.ptr())) {
    auto *a = reinterpret_cast<PyArrayObject *>(value.ptr());
    if (std::optional<DType> dtype = numpyDtype(a)) {
      int ndim = PyArray_NDIM(a);
      const npy_intp *dims = PyArray_DIMS(a);
      const npy_intp *steps = PyArray_STRIDES(a);
      Shape shape(dims, dims + ndim);
      Strides strides(steps, steps + ndim);
      return wrapLayout(PyArray_DATA(a), *dtype, std::move(shape),
                        std::move(strides), holdOwner(value));
    }
  }
  // Any other host array (DLPack, the buffer protocol), never converted.
  HostNdArray array;
  if (!nb::try_cast<HostNdArray>(value, array, /*convert=*/false))
    throw nb::type_error(
        ("expected a numpy array (or a host array with DLPack or the buffer "
         "protocol), got " +
         std::string(nb::type_name(value.type()).c_str()) +
         " (a function called with trust_input=True takes arrays of its "
         "inputs' dtypes only)")
            .c_str());
  DType dtype = dtypeOf(array.dtype());
  int64_t itemsize = int64_t(dtypeSize(dtype));
  Shape shape(array.ndim());
  Strides strides(array.ndim());
  for (size_t k = 0; k < array.ndim(); ++k) {
    shape[k] = int64_t(array.shape(k));
    strides[k] = int64_t(array.stride(k)) * itemsize;
  }
  return wrapLayout(const_cast<void *>(array.data()), dtype, std::move(shape),
                    std::move(strides), holdOwner(value));
}

/// numpy's type number of a tcc dtype.
static int numpyType(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return NPY_FLOAT32;
  case DType::F64:
    return NPY_FLOAT64;
  case DType::I32:
    return NPY_INT32;
  case DType::I64:
    return NPY_INT64;
  case DType::I1:
    return NPY_BOOL;
  case DType::F16:
    return NPY_FLOAT16;
  case DType::BF16:
    break;
  }
  return -1;
}

nb::object toNumpy(const Array &array) {
  int type = numpyType(array.dtype());
  if (type < 0)
    throw nb::type_error(
        ("numpy has no " + std::string(dtypeToName(array.dtype())) + " arrays")
            .c_str());
  // The numpy array's base holds the Array, so its buffer lives as long as
  // every view of it.
  auto *holder = new Array(array);
  PyObject *base = PyCapsule_New(holder, "tcc.Array", [](PyObject *capsule) {
    delete static_cast<Array *>(PyCapsule_GetPointer(capsule, "tcc.Array"));
  });
  if (!base) {
    delete holder;
    throw nb::python_error();
  }
  size_t ndim = array.ndim();
  npy_intp dims[NPY_MAXDIMS], strides[NPY_MAXDIMS];
  if (ndim > NPY_MAXDIMS) {
    Py_DECREF(base);
    throw nb::value_error("numpy arrays have at most 64 dimensions");
  }
  for (size_t k = 0; k < ndim; ++k) {
    dims[k] = npy_intp(array.shape()[k]);
    strides[k] = npy_intp(array.strides()[k]);
  }
  PyObject *result = PyArray_NewFromDescr(
      &PyArray_Type, PyArray_DescrFromType(type), int(ndim), dims, strides,
      array.data(), NPY_ARRAY_WRITEABLE, nullptr);
  if (!result) {
    Py_DECREF(base);
    throw nb::python_error();
  }
  if (PyArray_SetBaseObject(reinterpret_cast<PyArrayObject *>(result), base) <
      0) { // the base reference is stolen, even on failure
    Py_DECREF(result);
    throw nb::python_error();
  }
  return nb::steal(result);
}

void raise(const Status &status) {
  switch (status.code()) {
  case ErrorCode::DTypeMismatch:
    throw nb::type_error(status.message().c_str());
  case ErrorCode::OutOfMemory:
    PyErr_SetString(PyExc_MemoryError, status.message().c_str());
    throw nb::python_error();
  case ErrorCode::NotFound:
    throw nb::key_error(status.message().c_str());
  default:
    throw nb::value_error(status.message().c_str());
  }
}

} // namespace tcc::python
