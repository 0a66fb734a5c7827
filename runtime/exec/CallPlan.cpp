//===- CallPlan.cpp - what every call with one input signature shares ----===//

#include "runtime/exec/CallPlan.h"
#include "runtime/core/SharedStore.h"
#include "runtime/core/SharedVariable.h"
#include "runtime/exec/CallBindings.h"
#include "runtime/exec/ShapeChecks.h"

namespace tcc {

bool CallPlan::matches(const Array *inputs, size_t count) const {
  if (count != dtypes.size())
    return false;
  const int64_t *d = dims.data();
  for (size_t i = 0; i < count; ++i) {
    const Shape &shape = inputs[i].shape();
    if (inputs[i].dtype() != dtypes[i] || shape.size() != ranks[i])
      return false;
    for (int64_t size : shape)
      if (size != *d++)
        return false;
  }
  return true;
}

namespace {

/// The temporary's message prefix: "temporary f32(4,) of 'f' at x.tg:3:5".
std::string describeTemporary(const FunctionSpec &f, const TempSpec &t,
                              const Shape &shape) {
  return "temporary " + std::string(dtypeName(t.dtype)) + shapeToString(shape) +
         " of '" + f.name + "' at " + t.where;
}

} // namespace

Result<CallPlan> buildCallPlan(const FunctionSpec &f,
                               const std::vector<InputType> &inputs,
                               bool checkTemporaries) {
  CallPlan plan;
  size_t numArgs = f.args.size();
  plan.shapes.resize(numArgs);
  plan.bytes.assign(numArgs, 0);
  Bindings bindings;
  size_t next = 0;
  for (size_t i = 0; i < numArgs; ++i) {
    const ArgSpec &a = f.args[i];
    if (a.role == ArgRole::Shared)
      for (const DimSpec &d : a.dims)
        plan.shapes[i].push_back(d.size);
    if (a.role != ArgRole::Input)
      continue;
    const InputType &in = inputs[next++];
    TCC_RETURN_IF_ERROR(bindings.bind(f, a, in.dtype, *in.shape));
    plan.shapes[i] = *in.shape;
    plan.dtypes.push_back(in.dtype);
    plan.ranks.push_back(uint32_t(in.shape->size()));
    plan.dims.insert(plan.dims.end(), in.shape->begin(), in.shape->end());
  }
  TCC_RETURN_IF_ERROR(bindings.checkDerived(f));
  // The sizes the compiled code takes for granted (equal dynamic sizes,
  // slice ends, reshape counts): a wrong one would read or write out of
  // bounds, so it is an error here, before anything changes.
  TCC_RETURN_IF_ERROR(checkShapes(f, bindings));
  // Bound symbols can make an output's size overflow: an error here, before
  // anything changes, rather than a wrapped size in the compiled code.
  for (const OutputSpec &o : f.outputs) {
    const ArgSpec &a = f.args[o.arg];
    if (a.role != ArgRole::Output)
      continue;
    TCC_ASSIGN_OR_RETURN(plan.shapes[o.arg], bindings.shapeOf(f, a));
    Result<size_t> bytes = checkedNbytes(plan.shapes[o.arg], a.dtype);
    if (!bytes.ok())
      return Status::error(bytes.status().code(),
                           "output '" + a.name + "' of '" + f.name +
                               "': " + bytes.status().message());
    plan.bytes[o.arg] = bytes.value();
  }
  // Temporaries the compiled code will allocate: refused here, with the
  // source location, rather than a failed malloc inside compiled code; and
  // counted (those whose size the compiler could name).
  for (size_t k = 0; checkTemporaries && k < f.temporaries.size(); ++k) {
    const TempSpec &t = f.temporaries[k];
    Shape shape;
    bool known = true;
    for (const DimSpec &d : t.dims) {
      Result<int64_t> size =
          d.symbol == "?" ? Result<int64_t>(0) : bindings.sizeOf(d);
      known = known && d.symbol != "?" && size.ok();
      shape.push_back(size.ok() ? size.value() : 0);
    }
    if (!known)
      continue;
    Result<size_t> bytes = checkedNbytes(shape, t.dtype);
    if (!bytes.ok())
      return Status::error(bytes.status().code(),
                           describeTemporary(f, t, shape) + ": " +
                               bytes.status().message());
    // Each fits in int64, and there are few, so their sum cannot wrap.
    ++plan.temporaries;
    plan.temporaryBytes += bytes.value();
    plan.sizedTemporaries.push_back({k, std::move(shape), bytes.value()});
  }
  if (checkTemporaries)
    TCC_RETURN_IF_ERROR(checkTemporariesFit(f, plan));
  for (size_t i = 0; i < numArgs; ++i) {
    DType dtype = f.args[i].dtype;
    plan.strides.push_back(contiguousStrides(plan.shapes[i], dtypeSize(dtype)));
    if (f.args[i].role != ArgRole::Output) { // outputs are sized above
      // Real arrays and declared shapes: their sizes are valid.
      Result<size_t> n = checkedNbytes(plan.shapes[i], dtype);
      plan.bytes[i] = n.ok() ? n.value() : 0;
    }
  }
  // Descriptors: { allocated, aligned, offset, sizes[R], strides[R] } with
  // strides in elements, row-major.
  for (size_t i = 0; i < numArgs; ++i) {
    const Shape &shape = plan.shapes[i];
    size_t start = plan.descriptorWords.size(), rank = shape.size();
    plan.descriptorStarts.push_back(start);
    plan.descriptorWords.resize(start + 3 + 2 * rank, 0);
    int64_t *w = plan.descriptorWords.data() + start;
    int64_t stride = 1;
    for (size_t d = rank; d-- > 0;) {
      w[3 + d] = shape[d];
      w[3 + rank + d] = stride;
      stride *= shape[d];
    }
  }
  return plan;
}

Status checkTemporariesFit(const FunctionSpec &f, const CallPlan &plan) {
  for (const CallPlan::Temporary &t : plan.sizedTemporaries) {
    Status fits = checkAllocationFits(hostDevice(), t.bytes);
    if (!fits.ok())
      return Status::error(
          fits.code(), describeTemporary(f, f.temporaries[t.index], t.shape) +
                           ": " + fits.message());
  }
  return Status::success();
}

Status checkSharedArguments(const FunctionSpec &f, SharedStore &store,
                            const Device &device,
                            std::vector<SharedVariable *> &vars,
                            std::vector<size_t> &varArgs) {
  for (size_t i = 0; i < f.args.size(); ++i) {
    const ArgSpec &a = f.args[i];
    if (a.role != ArgRole::Shared)
      continue;
    TCC_ASSIGN_OR_RETURN(SharedVariable * v, store.lookup(a.name));
    if (&v->device() != &device)
      return Status::error(
          ErrorCode::Unsupported,
          device.isHost()
              ? "shared variable '" + a.name +
                    "' lives on a device; this function runs on the host"
              : "shared variable '" + a.name + "' lives on " +
                    v->device().name() + "; '" + f.name + "' runs on " +
                    device.name());
    bool same = v->dtype() == a.dtype && v->shape().size() == a.dims.size();
    for (size_t d = 0; same && d < a.dims.size(); ++d)
      same = v->shape()[d] == a.dims[d].size;
    if (!same)
      return Status::error(ErrorCode::ShapeMismatch,
                           "shared variable '" + a.name + "' is " +
                               dtypeName(v->dtype()) +
                               shapeToString(v->shape()) + " but '" + f.name +
                               "' was compiled for " + describeSpec(a));
    vars.push_back(v);
    varArgs.push_back(i);
  }
  return Status::success();
}

std::vector<bool> writtenArguments(const FunctionSpec &f) {
  std::vector<bool> written(f.args.size(), false);
  for (size_t i = 0; i < f.args.size(); ++i) {
    const ArgSpec &a = f.args[i];
    if (a.role == ArgRole::Input)
      written[i] = a.borrow;
    if (a.role == ArgRole::Shared)
      for (const std::string &u : f.updates)
        written[i] = written[i] || u == a.name;
  }
  return written;
}

} // namespace tcc
