//===- RuntimeBinding.cpp - the managed memory space and calls for Python -===//
//
// One tcc::Runtime per process is Python's managed memory space: every
// shared variable lives in its store, and every compiled function is loaded
// into it, so that functions share variables as PyTensor's do; a function
// is unloaded when its last Python handle goes. Calls release the GIL; a
// readers-writer lock keeps loading, unloading and creating or erasing
// variables apart from calls in flight (Runtime::load and unload are not
// concurrent with calls). The lock is always taken with the GIL released.
//
//===----------------------------------------------------------------------===//

#include "ManagedSpace.h"
#include "NumpyArrays.h"

#include "runtime/exec/Runtime.h"

#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

namespace nb = nanobind;
using namespace tcc;

namespace tcc::python {

namespace {

/// The process's managed memory space.
struct Space {
  std::unique_ptr<Runtime> runtime;
  std::shared_mutex lock;
};

Space &space() {
  static Space *s = new Space(); // outlives every Python object
  return *s;
}

Runtime &runtime() {
  Space &s = space();
  if (!s.runtime)
    throw nb::value_error("tcc's runtime was shut down (the interpreter is "
                          "exiting)");
  return *s.runtime;
}

/// Holds the space's lock for writing, taken with the GIL released.
struct ExclusiveLock {
  ExclusiveLock() {
    nb::gil_scoped_release release;
    lock = std::unique_lock<std::shared_mutex>(space().lock);
  }
  std::unique_lock<std::shared_mutex> lock;
};

/// `value` as an Array over its memory; a misaligned one (which compiled
/// code must not read) is copied, as no caller can see that copy.
Array hostArray(nb::handle value, bool &adoptable) {
  Wrapped w = wrapHost(value);
  adoptable = w.contiguous && w.aligned;
  if (!w.aligned)
    return valueOrRaise(w.array.copy());
  return w.array;
}

Array hostArray(nb::handle value) {
  bool adoptable = false;
  return hostArray(value, adoptable);
}

SharedVariable *variable(const std::string &name) {
  return valueOrRaise(runtime().shared().lookup(name));
}

/// A program loaded into the space for one compiled function: unloaded
/// when the last handle of the function goes, so that a process that
/// compiles many functions holds the code (and, for one that went through
/// the compile cache, the descriptor of its in-memory shared object) of
/// those still alive only.
struct LoadedProgram {
  explicit LoadedProgram(std::shared_ptr<const Program> program)
      : program(std::move(program)) {}
  LoadedProgram(const LoadedProgram &) = delete;
  LoadedProgram &operator=(const LoadedProgram &) = delete;
  ~LoadedProgram() {
    // After shutdown() the runtime (and the functions) are gone already.
    ExclusiveLock lock;
    if (space().runtime)
      (void)space().runtime->unload(*program);
  }
  std::shared_ptr<const Program> program;
};

/// A compiled function as Python calls it.
class PyFunction {
public:
  PyFunction(Function *fn, std::shared_ptr<LoadedProgram> program)
      : fn(fn), program(std::move(program)) {
    for (const ArgSpec &a : fn->spec().args)
      if (a.role == ArgRole::Input)
        inputs.push_back(&a);
  }

  /// Calls with numpy arrays in declaration order; returns the outputs as
  /// numpy arrays (fresh ones that Python owns, or views of a borrowed
  /// output's reused buffer).
  nb::list call(nb::args args) {
    std::vector<Array> outputs = run(args);
    nb::list results;
    for (const Array &a : outputs)
      results.append(toNumpy(a));
    return results;
  }

  /// The first output of a call (a function of one output, called with
  /// `trust_input`: the call that costs least, docs/performance.md).
  nb::object callOne(nb::args args) {
    std::vector<Array> outputs = run(args);
    if (outputs.empty())
      return nb::none();
    return toNumpy(outputs[0]);
  }

  /// (name, dtype, borrow) of each input in order.
  std::vector<std::tuple<std::string, std::string, bool>> inputSpecs() const {
    std::vector<std::tuple<std::string, std::string, bool>> specs;
    for (const ArgSpec *a : inputs)
      specs.push_back({a->name, dtypeToName(a->dtype), a->borrow});
    return specs;
  }

  /// PyTensor's Function.free(): the buffers kept between calls go (a
  /// borrowed output's); the function stays callable.
  void free() {
    ExclusiveLock lock;
    fn->releaseKeptBuffers();
  }

  Function *fn;
  std::shared_ptr<LoadedProgram> program;
  std::vector<const ArgSpec *> inputs;

private:
  /// The outputs of a call with the arrays of `args`, the GIL released
  /// while the function runs.
  std::vector<Array> run(nb::args args) {
    size_t n = args.size();
    if (n != inputs.size())
      throw nb::type_error(("function '" + fn->name() + "' takes " +
                            std::to_string(inputs.size()) + " inputs, got " +
                            std::to_string(n))
                               .c_str());
    std::vector<Array> arrays;
    arrays.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      Wrapped w = wrapHost(args[i]);
      const ArgSpec &spec = *inputs[i];
      if (spec.borrow) {
        // A borrowed input may be written; a copy would lose the writes.
        if (w.array.dtype() != spec.dtype)
          throw nb::type_error(
              ("borrowed input '" + spec.name + "' is " +
               dtypeToName(spec.dtype) + " but the array is " +
               dtypeToName(w.array.dtype()) +
               ": tcc would have to convert it, and the function's writes "
               "would then be lost (pass a " +
               dtypeToName(spec.dtype) + " array, or drop borrow/mutable)")
                  .c_str());
        if (!w.contiguous || !w.aligned)
          throw nb::value_error(
              ("borrowed input '" + spec.name +
               "' is not a C-contiguous, aligned array: tcc would have to "
               "copy it, and the function's writes would then be lost "
               "(pass np.ascontiguousarray(x), or drop borrow/mutable)")
                  .c_str());
      } else if (!w.aligned) {
        w.array = valueOrRaise(w.array.copy());
      }
      arrays.push_back(std::move(w.array));
    }
    std::vector<Array> outputs;
    Status status;
    {
      nb::gil_scoped_release release;
      std::shared_lock<std::shared_mutex> lock(space().lock);
      status = fn->callInto(arrays, outputs);
    }
    if (!status.ok())
      raise(status);
    return outputs;
  }
};
} // namespace

void bindRuntime(nb::module_ &m) {
  m.def("startup", [] {
    Space &s = space();
    if (!s.runtime)
      s.runtime = std::make_unique<Runtime>();
  });
  // Python's atexit: the runtime (and the compiled code it holds) goes
  // while the interpreter still runs, before static destructors.
  m.def("shutdown", [] {
    ExclusiveLock lock;
    space().runtime.reset();
  });

  m.def(
      "shared_create",
      [](const std::string &name, nb::handle value, bool borrow) {
        bool adoptable = false;
        Array a = hostArray(value, adoptable);
        ExclusiveLock lock;
        valueOrRaise(runtime().shared().create(name, Value(a), borrow));
      },
      nb::arg("name"), nb::arg("value").noconvert(), nb::arg("borrow"));
  m.def("shared_erase", [](const std::string &name) {
    ExclusiveLock lock;
    if (space().runtime)
      (void)space().runtime->shared().erase(name);
  });
  m.def(
      "shared_get",
      [](const std::string &name, bool borrow, bool internal) {
        Value v = valueOrRaise(variable(name)->getValue(borrow, internal));
        if (!v.isHostArray())
          throw nb::value_error("a device value: not supported by the Python "
                                "module yet");
        return toNumpy(*v.hostArray());
      },
      nb::arg("name"), nb::arg("borrow"), nb::arg("internal"));
  m.def(
      "shared_set",
      [](const std::string &name, nb::handle value, bool borrow) {
        Array a = hostArray(value);
        SharedVariable *v = variable(name);
        Status s;
        {
          nb::gil_scoped_release release;
          s = v->setValue(Value(a), borrow);
        }
        if (!s.ok())
          raise(s);
      },
      nb::arg("name"), nb::arg("value").noconvert(), nb::arg("borrow"));
  m.def("shared_info", [](const std::string &name) {
    SharedVariable *v = variable(name);
    return std::make_tuple(
        std::string(dtypeToName(v->dtype())),
        std::vector<int64_t>(v->shape().begin(), v->shape().end()));
  });
  m.def("shared_count", [] { return runtime().shared().size(); });

  nb::class_<PyFunction>(m, "Function")
      .def("__call__", &PyFunction::call)
      .def("call_one", &PyFunction::callOne)
      .def("inputs", &PyFunction::inputSpecs)
      .def("free", &PyFunction::free)
      .def_prop_ro("name", [](PyFunction &f) { return f.fn->name(); });
}

Runtime &managedRuntime() { return runtime(); }

nb::object loadProgram(std::shared_ptr<Program> program,
                       const std::string &name) {
  Function *fn = nullptr;
  {
    ExclusiveLock lock;
    Runtime &rt = runtime();
    Status s = rt.load(program);
    if (!s.ok())
      raise(s);
    Result<Function *> found = rt.function(name);
    if (!found.ok()) {
      (void)rt.unload(*program);
      raise(found.status());
    }
    fn = found.value();
  }
  // Made after the lock is released: the handle takes it again to unload
  // when it goes, even if the cast below fails.
  auto loaded = std::make_shared<LoadedProgram>(std::move(program));
  return nb::cast(PyFunction(fn, std::move(loaded)));
}

} // namespace tcc::python
