// Value: uniform queries over host and device arrays.
#include "runtime/core/Value.h"

namespace tcc {

const char *valueKindName(ValueKind kind) {
  return kind == ValueKind::HostArray ? "host array" : "device array";
}

template <class F> static decltype(auto) visit(const Value &v, F &&f) {
  if (const Array *a = v.hostArray())
    return f(*a);
  return f(*v.deviceArray());
}

bool Value::isNull() const {
  return visit(*this, [](const auto &a) { return a.isNull(); });
}
DType Value::dtype() const {
  return visit(*this, [](const auto &a) { return a.dtype(); });
}
const Shape &Value::shape() const {
  return visit(*this, [](const auto &a) -> const Shape & { return a.shape(); });
}
int64_t Value::numel() const {
  return visit(*this, [](const auto &a) { return a.numel(); });
}
size_t Value::nbytes() const {
  return visit(*this, [](const auto &a) { return a.nbytes(); });
}
Device &Value::device() const {
  const auto &b = buffer();
  return b ? b->device() : hostDevice();
}
const std::shared_ptr<Buffer> &Value::buffer() const {
  return visit(*this, [](const auto &a) -> const std::shared_ptr<Buffer> & {
    return a.buffer();
  });
}
ByteRange Value::byteRange() const {
  return visit(*this, [](const auto &a) { return a.byteRange(); });
}
int64_t Value::offset() const {
  return visit(*this, [](const auto &a) { return a.offset(); });
}
bool Value::isContiguous() const {
  const Array *a = hostArray();
  return !a || a->isContiguous();
}

std::string Value::describe() const {
  if (isNull())
    return "null value";
  return std::string(dtypeName(dtype())) + shapeToString(shape()) + " " +
         valueKindName(kind()) + " on " + device().name() +
         (isContiguous() ? "" : " [non-contiguous]");
}

} // namespace tcc
