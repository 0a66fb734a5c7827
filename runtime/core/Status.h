// Status and Result<T>: errors as values across the whole runtime API.
#ifndef TCC_RUNTIME_CORE_STATUS_H
#define TCC_RUNTIME_CORE_STATUS_H

#include <optional>
#include <string>
#include <utility>

namespace tcc {

/// The kinds of failure the runtime reports. `Ok` means no error.
enum class ErrorCode {
  Ok,
  InvalidArgument, ///< A malformed argument (bad axis, bad permutation, ...).
  ShapeMismatch,   ///< Two shapes that must agree do not.
  DTypeMismatch,   ///< Two element types that must agree do not.
  NotFound,        ///< A named thing (variable, file member) does not exist.
  IoError,         ///< Reading or writing a file failed, or a file is bad.
  OutOfMemory,     ///< An allocation failed or its size overflowed.
  Unsupported,     ///< A valid request this runtime cannot serve.
  Aliasing,        ///< A memory-aliasing rule would be broken.
  CompileError,    ///< A function compiled on first use failed to compile.
  Internal,        ///< A bug in the runtime.
};

/// The stable name of an error code ("ShapeMismatch", ...).
const char *errorCodeName(ErrorCode code);

/// The outcome of an operation: ok, or an error code with a message.
class [[nodiscard]] Status {
public:
  /// An ok status.
  Status() = default;
  /// An ok status (spelled out).
  static Status success() { return Status(); }
  /// An error status; `code` must not be `ErrorCode::Ok`.
  static Status error(ErrorCode code, std::string message);

  /// True when no error happened.
  bool ok() const { return code_ == ErrorCode::Ok; }
  /// The error code (`Ok` on success).
  ErrorCode code() const { return code_; }
  /// The human-readable message (empty on success).
  const std::string &message() const { return message_; }
  /// "CodeName: message", or "Ok".
  std::string toString() const;

private:
  ErrorCode code_ = ErrorCode::Ok;
  std::string message_;
};

namespace detail {
/// Reports use of a Result's value when it holds an error (a programming
/// bug, not a user error) and aborts.
[[noreturn]] void badResultAccess(const Status &status);
} // namespace detail

/// Either a value of type T or an error Status.
template <class T> class [[nodiscard]] Result {
public:
  /// A successful result.
  Result(T value) : value_(std::move(value)) {}
  /// A failed result. An ok Status here is a bug and becomes Internal.
  Result(Status status) : status_(std::move(status)) {
    if (status_.ok())
      status_ = Status::error(ErrorCode::Internal,
                              "Result built from an ok Status without a value");
  }

  /// True when the result holds a value.
  bool ok() const { return value_.has_value(); }
  /// The error (an ok Status when the result holds a value).
  const Status &status() const { return status_; }

  /// The value. Calling this on an error is a programming bug: it aborts.
  T &value() & { return check(), *value_; }
  const T &value() const & { return check(), *value_; }
  T &&value() && { return check(), std::move(*value_); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }
  T &operator*() { return value(); }
  const T &operator*() const { return value(); }

private:
  void check() const {
    if (!value_)
      detail::badResultAccess(status_);
  }
  std::optional<T> value_;
  Status status_;
};

} // namespace tcc

#define TCC_CONCAT_INNER(a, b) a##b
#define TCC_CONCAT(a, b) TCC_CONCAT_INNER(a, b)

/// Returns the Status of `expr` from the enclosing function when it fails.
#define TCC_RETURN_IF_ERROR(expr)                                              \
  do {                                                                         \
    ::tcc::Status tcc_status_ = (expr);                                        \
    if (!tcc_status_.ok())                                                     \
      return tcc_status_;                                                      \
  } while (0)

/// `TCC_ASSIGN_OR_RETURN(auto x, makeX())`: binds the value or returns the
/// error from the enclosing function.
#define TCC_ASSIGN_OR_RETURN(decl, expr)                                       \
  TCC_ASSIGN_OR_RETURN_IMPL(TCC_CONCAT(tcc_result_, __LINE__), decl, expr)
#define TCC_ASSIGN_OR_RETURN_IMPL(tmp, decl, expr)                             \
  auto tmp = (expr);                                                           \
  if (!tmp.ok())                                                               \
    return tmp.status();                                                       \
  decl = std::move(tmp).value()

#endif // TCC_RUNTIME_CORE_STATUS_H
