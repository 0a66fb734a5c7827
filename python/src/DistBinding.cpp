//===- DistBinding.cpp - data-parallel jobs from Python -------------------===//
//
// A script run under mpirun is one rank of a job (docs/distributed.md, "From
// Python"). tcc.function(..., data_parallel=True) compiles its graph with
// the gradients averaged across the ranks (CompilerBinding.cpp) and keeps
// the variables it updates identical on every rank: rank 0's values are
// broadcast when the function is made, and DebugMode compares a hash of
// them after each call. The communicator is the compiled collectives' own
// (MPI, started on first use), so the script needs no MPI of its own.
//
//===----------------------------------------------------------------------===//

#include "ManagedSpace.h"
#include "NumpyArrays.h"

#include "runtime/dist/CollectiveCall.h"
#include "runtime/dist/DataParallel.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <tuple>
#include <vector>

namespace nb = nanobind;
using namespace tcc;

namespace tcc::python {

namespace {

Communicator &world() {
  Result<Communicator *> w = collectiveCommunicator();
  if (!w.ok())
    raise(w.status());
  return *w.value();
}

} // namespace

void bindDist(nb::module_ &m) {
  // (rank, size) of this process in the job; starts MPI on first use.
  m.def("dist_world", [] {
    Communicator &c = world();
    return std::make_tuple(c.rank(), c.size());
  });
  // Every rank's variables `names` take rank 0's values (collective).
  m.def(
      "dist_broadcast",
      [](const std::vector<std::string> &names) {
        Communicator &c = world();
        SharedStore &store = managedRuntime().shared();
        Status s;
        {
          nb::gil_scoped_release release;
          s = dist::broadcastNamedVariables(store, c, names);
        }
        if (!s.ok())
          raise(s);
      },
      nb::arg("names"));
  // Fails on every rank unless the variables `names` are bitwise the same
  // on every rank (collective); `when` starts the message.
  m.def(
      "dist_check",
      [](const std::vector<std::string> &names, const std::string &when) {
        Communicator &c = world();
        const SharedStore &store = managedRuntime().shared();
        Status s;
        {
          nb::gil_scoped_release release;
          s = dist::checkNamedReplicasIdentical(store, c, names, when);
        }
        if (!s.ok())
          raise(s);
      },
      nb::arg("names"), nb::arg("when"));
}

} // namespace tcc::python
