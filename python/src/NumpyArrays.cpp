//===- NumpyArrays.cpp - numpy arrays as tcc::Array and back, no copy -----===//

#include "NumpyArrays.h"

#include <Python.h>

#include <cstdint>
#include <vector>

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

static nb::dlpack::dtype dlpackOf(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return nb::dtype<float>();
  case DType::F64:
    return nb::dtype<double>();
  case DType::I32:
    return nb::dtype<int32_t>();
  case DType::I64:
    return nb::dtype<int64_t>();
  case DType::I1:
    return nb::dtype<bool>();
  case DType::F16:
    return nb::dlpack::dtype{uint8_t(nb::dlpack::dtype_code::Float), 16, 1};
  case DType::BF16:
    return nb::dlpack::dtype{uint8_t(nb::dlpack::dtype_code::Bfloat), 16, 1};
  }
  return nb::dtype<float>();
}

Wrapped wrapHost(const HostNdArray &array, nb::handle owner) {
  DType dtype = dtypeOf(array.dtype());
  size_t itemsize = dtypeSize(dtype);
  Shape shape(array.ndim());
  Strides strides(array.ndim());
  bool contiguous = true;
  int64_t expected = int64_t(itemsize);
  for (size_t k = array.ndim(); k-- > 0;) {
    shape[k] = int64_t(array.shape(k));
    strides[k] = int64_t(array.stride(k)) * int64_t(itemsize);
    if (shape[k] != 1 && strides[k] != expected)
      contiguous = false;
    expected *= shape[k];
  }
  void *data = const_cast<void *>(array.data());
  // The memory belongs to `owner`: the Array's buffer holds a reference,
  // dropped with the GIL (a buffer may die on a thread that runs a call).
  PyObject *ref = owner.ptr();
  Py_INCREF(ref);
  auto release = [ref](void *) {
    if (!Py_IsInitialized() || _Py_IsFinalizing())
      return; // the interpreter is gone: nothing to release into
    PyGILState_STATE state = PyGILState_Ensure();
    Py_DECREF(ref);
    PyGILState_Release(state);
  };
  Result<Array> wrapped = Array::wrap(data, dtype, shape, strides, release);
  if (!wrapped.ok()) {
    Py_DECREF(ref);
    raise(wrapped.status());
  }
  Wrapped w;
  w.array = std::move(wrapped).value();
  w.contiguous = contiguous;
  w.aligned = reinterpret_cast<uintptr_t>(data) % itemsize == 0;
  return w;
}

nb::object toNumpy(const Array &array) {
  auto *holder = new Array(array);
  nb::capsule owner(holder,
                    [](void *p) noexcept { delete static_cast<Array *>(p); });
  size_t itemsize = array.itemsize();
  std::vector<size_t> shape(array.ndim());
  std::vector<int64_t> strides(array.ndim());
  for (size_t k = 0; k < array.ndim(); ++k) {
    shape[k] = size_t(array.shape()[k]);
    strides[k] = array.strides()[k] / int64_t(itemsize);
  }
  nb::ndarray<nb::numpy> result(array.data(), array.ndim(), shape.data(), owner,
                                strides.data(), dlpackOf(array.dtype()));
  return nb::cast(result, nb::rv_policy::reference);
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
