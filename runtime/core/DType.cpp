// DType sizes, names, and the numpy descr mapping.
#include "runtime/core/DType.h"

namespace tcc {

static_assert(sizeof(bool) == 1, "I1 is stored as a one-byte bool");

size_t dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F64:
  case DType::I64:
    return 8;
  case DType::I1:
    return 1;
  case DType::F16:
  case DType::BF16:
    return 2;
  }
  return 0;
}

const char *dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::I1:
    return "i1";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  }
  return "?";
}

Result<DType> parseDType(std::string_view name) {
  for (DType d : kAllDTypes)
    if (name == dtypeName(d))
      return d;
  return Status::error(ErrorCode::InvalidArgument,
                       "unknown dtype '" + std::string(name) + "'");
}

Result<std::string> numpyDescr(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return std::string("<f4");
  case DType::F64:
    return std::string("<f8");
  case DType::I32:
    return std::string("<i4");
  case DType::I64:
    return std::string("<i8");
  case DType::I1:
    return std::string("|b1");
  case DType::F16:
    return std::string("<f2");
  case DType::BF16:
    break;
  }
  return Status::error(ErrorCode::Unsupported, std::string("dtype ") +
                                                   dtypeName(dtype) +
                                                   " has no numpy equivalent");
}

Result<DType> dtypeFromNumpyDescr(std::string_view descr) {
  auto unsupported = [&] {
    return Status::error(ErrorCode::Unsupported,
                         "unsupported numpy dtype '" + std::string(descr) +
                             "' (supported: <f2 <f4 <f8 <i4 <i8 |b1)");
  };
  if (descr.size() < 2)
    return unsupported();
  char order = descr[0];
  std::string_view kind = descr.substr(1);
  if (kind == "b1" || kind == "?")
    return order == '|' || order == '<' || order == '='
               ? Result<DType>(DType::I1)
               : unsupported();
  if (order != '<' && order != '=')
    return unsupported();
  if (kind == "f2")
    return DType::F16;
  if (kind == "f4")
    return DType::F32;
  if (kind == "f8")
    return DType::F64;
  if (kind == "i4")
    return DType::I32;
  if (kind == "i8")
    return DType::I64;
  return unsupported();
}

bool isSafeCast(DType from, DType to) {
  if (from == to || from == DType::I1)
    return true;
  switch (to) {
  case DType::F64:
    return true; // every other dtype but i1 (handled above)
  case DType::F32:
    return from == DType::F16 || from == DType::BF16;
  case DType::I64:
    return from == DType::I32;
  case DType::F16:
  case DType::BF16:
  case DType::I32:
  case DType::I1:
    return false;
  }
  return false;
}

} // namespace tcc
