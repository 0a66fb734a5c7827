//===- CallBindings.h - checking a call's inputs against its declaration --===//
//
// Shared by the host and device paths of Function::call: every input's dtype
// and rank, static sizes, and one value per symbolic dimension (`N`) across
// the inputs, with errors that name the function, the input and both types.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_EXEC_CALLBINDINGS_H
#define TCC_RUNTIME_EXEC_CALLBINDINGS_H

#include "runtime/exec/Manifest.h"

#include <cctype>
#include <string>
#include <vector>

namespace tcc {

/// "f32[N, 784]".
inline std::string describeSpec(const ArgSpec &a) {
  std::string text = std::string(dtypeName(a.dtype)) + "[";
  for (size_t i = 0; i < a.dims.size(); ++i) {
    if (i)
      text += ", ";
    text += a.dims[i].isSymbolic() ? a.dims[i].symbol
                                   : std::to_string(a.dims[i].size);
  }
  return text + "]";
}

/// What a numpy user writes to convert an array to `dtype` (numpy's default
/// float64 meets an f32 input more often than anything else); empty where
/// numpy has no such dtype (bf16).
inline std::string astypeHint(DType dtype) {
  const char *numpy = nullptr;
  switch (dtype) {
  case DType::F32:
    numpy = "float32";
    break;
  case DType::F64:
    numpy = "float64";
    break;
  case DType::F16:
    numpy = "float16";
    break;
  case DType::I32:
    numpy = "int32";
    break;
  case DType::I64:
    numpy = "int64";
    break;
  case DType::I1:
    numpy = "bool_";
    break;
  case DType::BF16:
    return "";
  }
  return std::string(" (convert it with .astype(np.") + numpy + "))";
}

struct Bindings;

/// The value of a size expression (`B*T`) under `bindings`
/// (runtime/exec/ShapeChecks.h).
Result<int64_t> evaluateSizeExpression(const std::string &text,
                                       const Bindings &bindings);

/// Whether a dimension's symbol is an expression (`B*T`, `2*N`) rather than
/// one name: inputs check it once the names are bound, outputs compute it.
inline bool isSizeExpression(const std::string &symbol) {
  for (char c : symbol)
    if (!(std::isalnum((unsigned char)c) || c == '_'))
      return true;
  return false;
}

/// Symbol bindings of one call, with where each came from.
struct Bindings {
  struct Binding {
    const std::string *symbol;
    int64_t size;
    const std::string *input;
  };
  std::vector<Binding> values;
  /// Input dimensions that are expressions, checked by checkDerived once
  /// every input is bound.
  struct Derived {
    const ArgSpec *spec;
    size_t dim;
    int64_t size;
  };
  std::vector<Derived> derived;

  const Binding *find(const std::string &symbol) const {
    for (const Binding &b : values)
      if (*b.symbol == symbol)
        return &b;
    return nullptr;
  }

  /// Checks an input of `dtype` and `shape` against its declaration and
  /// binds its symbolic dimensions.
  Status bind(const FunctionSpec &f, const ArgSpec &spec, DType dtype,
              const Shape &shape) {
    auto mismatch = [&](const std::string &why) {
      return Status::error(ErrorCode::ShapeMismatch,
                           "input '" + spec.name + "' of '" + f.name +
                               "' must be " + describeSpec(spec) + ", got " +
                               dtypeName(dtype) + shapeToString(shape) + why);
    };
    if (dtype != spec.dtype)
      return Status::error(ErrorCode::DTypeMismatch,
                           "input '" + spec.name + "' of '" + f.name +
                               "' must be " + describeSpec(spec) + ", got " +
                               dtypeName(dtype) + shapeToString(shape) +
                               astypeHint(spec.dtype));
    if (shape.size() != spec.dims.size())
      return mismatch("");
    for (size_t i = 0; i < spec.dims.size(); ++i) {
      const DimSpec &d = spec.dims[i];
      int64_t size = shape[i];
      if (!d.isSymbolic()) {
        if (size != d.size)
          return mismatch("");
        continue;
      }
      if (isSizeExpression(d.symbol)) {
        derived.push_back({&spec, i, size});
        continue;
      }
      const Binding *known = find(d.symbol);
      if (!known)
        values.push_back({&d.symbol, size, &spec.name});
      else if (known->size != size)
        return mismatch(" (" + d.symbol + " is " + std::to_string(known->size) +
                        " from input '" + *known->input + "')");
    }
    return Status::success();
  }

  /// After every input is bound: each input dimension declared as an
  /// expression (`B*T`) has its value.
  Status checkDerived(const FunctionSpec &f) const {
    for (const Derived &d : derived) {
      const std::string &text = d.spec->dims[d.dim].symbol;
      Result<int64_t> value = evaluateSizeExpression(text, *this);
      if (!value.ok())
        return value.status();
      if (value.value() != d.size)
        return Status::error(ErrorCode::ShapeMismatch,
                             "input '" + d.spec->name + "' of '" + f.name +
                                 "' must be " + describeSpec(*d.spec) +
                                 ": dimension " + std::to_string(d.dim) +
                                 " is " + std::to_string(d.size) + ", but " +
                                 text + " = " + std::to_string(value.value()));
    }
    return Status::success();
  }

  /// The size of a declared dimension: static, bound, or computed.
  Result<int64_t> sizeOf(const DimSpec &d) const {
    if (!d.isSymbolic())
      return d.size;
    if (const Binding *known = find(d.symbol))
      return known->size;
    return evaluateSizeExpression(d.symbol, *this);
  }

  Result<Shape> shapeOf(const FunctionSpec &f, const ArgSpec &spec) const {
    Shape shape;
    shape.reserve(spec.dims.size());
    for (const DimSpec &d : spec.dims) {
      if (!d.isSymbolic()) {
        shape.push_back(d.size);
        continue;
      }
      if (isSizeExpression(d.symbol)) {
        Result<int64_t> size = evaluateSizeExpression(d.symbol, *this);
        if (!size.ok())
          return Status::error(size.status().code(),
                               "output '" + spec.name + "' of '" + f.name +
                                   "': " + size.status().message());
        shape.push_back(size.value());
        continue;
      }
      const Binding *known = find(d.symbol);
      if (!known)
        return Status::error(ErrorCode::Internal,
                             "output '" + spec.name + "' of '" + f.name +
                                 "' uses dimension " + d.symbol +
                                 ", which no input binds");
      shape.push_back(known->size);
    }
    return shape;
  }
};

} // namespace tcc

#endif // TCC_RUNTIME_EXEC_CALLBINDINGS_H
