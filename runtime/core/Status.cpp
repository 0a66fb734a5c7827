// Status names, formatting, and the bad-access report.
#include "runtime/core/Status.h"

#include <cstdio>
#include <cstdlib>

namespace tcc {

const char *errorCodeName(ErrorCode code) {
  switch (code) {
  case ErrorCode::Ok:
    return "Ok";
  case ErrorCode::InvalidArgument:
    return "InvalidArgument";
  case ErrorCode::ShapeMismatch:
    return "ShapeMismatch";
  case ErrorCode::DTypeMismatch:
    return "DTypeMismatch";
  case ErrorCode::NotFound:
    return "NotFound";
  case ErrorCode::IoError:
    return "IoError";
  case ErrorCode::OutOfMemory:
    return "OutOfMemory";
  case ErrorCode::Unsupported:
    return "Unsupported";
  case ErrorCode::Aliasing:
    return "Aliasing";
  case ErrorCode::CompileError:
    return "CompileError";
  case ErrorCode::Internal:
    return "Internal";
  }
  return "Unknown";
}

Status Status::error(ErrorCode code, std::string message) {
  Status s;
  s.code_ = code == ErrorCode::Ok ? ErrorCode::Internal : code;
  s.message_ = std::move(message);
  return s;
}

std::string Status::toString() const {
  if (ok())
    return "Ok";
  return std::string(errorCodeName(code_)) + ": " + message_;
}

namespace detail {
void badResultAccess(const Status &status) {
  std::fprintf(stderr, "tcc: value() called on a failed Result: %s\n",
               status.toString().c_str());
  std::abort();
}
} // namespace detail

} // namespace tcc
