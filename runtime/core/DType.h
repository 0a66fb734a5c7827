// DType: the element types of arrays, with sizes, names and numpy descrs.
#ifndef TCC_RUNTIME_CORE_DTYPE_H
#define TCC_RUNTIME_CORE_DTYPE_H

#include "runtime/core/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tcc {

/// Element types. I1 is a boolean stored in one byte (0 or 1).
enum class DType : uint8_t { F32, F64, I32, I64, I1, F16, BF16 };

/// All dtypes, for iteration in tests and tools.
inline constexpr DType kAllDTypes[] = {DType::F32, DType::F64, DType::I32,
                                       DType::I64, DType::I1,  DType::F16,
                                       DType::BF16};

/// Size of one element in bytes.
size_t dtypeSize(DType dtype);
/// Short name: "f32", "f64", "i32", "i64", "i1", "f16", "bf16".
const char *dtypeName(DType dtype);
/// Inverse of dtypeName; InvalidArgument for an unknown name.
Result<DType> parseDType(std::string_view name);
/// The numpy descr ("<f4", "|b1", ...); Unsupported for bf16.
Result<std::string> numpyDescr(DType dtype);
/// The dtype of a numpy descr. Accepts '<', '=' and (for one-byte types) '|'
/// byte orders; big-endian and other kinds are Unsupported.
Result<DType> dtypeFromNumpyDescr(std::string_view descr);

/// True when every value of `from` is kept by a cast to `to`, as numpy's
/// promote_types(to, from) == to (PyTensor's rule for accepting a value of
/// another dtype): i1 to any dtype, i32 to i64 or f64, f16 and bf16 to f32
/// or f64, f32 to f64 (i64 to f64 too, as numpy allows). Everything else
/// (f64 to f32, float to int, i64 to i32, i32 to f32, f32 to f16 ...) is
/// lossy. A dtype casts safely to itself.
bool isSafeCast(DType from, DType to);

/// Maps a C++ element type to its DType (float, double, int32_t, int64_t,
/// bool).
template <class T> struct DTypeOf;
template <> struct DTypeOf<float> {
  static constexpr DType value = DType::F32;
};
template <> struct DTypeOf<double> {
  static constexpr DType value = DType::F64;
};
template <> struct DTypeOf<int32_t> {
  static constexpr DType value = DType::I32;
};
template <> struct DTypeOf<int64_t> {
  static constexpr DType value = DType::I64;
};
template <> struct DTypeOf<bool> { static constexpr DType value = DType::I1; };

} // namespace tcc

#endif // TCC_RUNTIME_CORE_DTYPE_H
