//===- CollectiveBuiltins.cpp - graph-file calls of collectives -----------===//
//
// `op` names the reduction as a string ("sum" by default, as MPI_Allreduce
// is most often used); `ranks` is required where the result's shape
// depends on the job size; `root` defaults to rank 0.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/CollectiveBuiltins.h"
#include "compiler/frontend/CallArgs.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;

/// The `op` keyword: a string, "sum" when absent.
static FailureOr<std::string> reductionOf(const CallSite &call) {
  const AttrValue *v = CallArgs(call).find("op");
  if (!v)
    return std::string("sum");
  if (v->kind != AttrValue::Kind::String)
    return emitError(v->loc) << "'op' of '" << call.name
                             << "' must be a string: \"sum\", \"mean\", "
                                "\"max\" or \"min\"";
  return v->text;
}

TensorRef frontend::emitCollectiveCall(GraphBuilder &builder,
                                       const CallSite &call,
                                       ArrayRef<TensorRef> tensors) {
  CallArgs kw(call);
  if (call.name == "process_rank")
    return builder.processRank(call.loc);
  if (call.name == "broadcast") {
    FailureOr<int64_t> root = kw.integer("root", 0);
    if (failed(root))
      return {};
    return builder.broadcastFrom(call.loc, tensors[0], *root);
  }
  FailureOr<std::string> reduction = std::string("sum");
  if (call.name != "all_gather")
    reduction = reductionOf(call);
  if (failed(reduction))
    return {};
  if (call.name == "all_reduce")
    return builder.allReduce(call.loc, tensors[0], *reduction);
  FailureOr<int64_t> ranks = kw.integer("ranks", std::nullopt);
  if (failed(ranks))
    return {};
  if (call.name == "all_gather")
    return builder.allGather(call.loc, tensors[0], *ranks);
  return builder.reduceScatter(call.loc, tensors[0], *reduction, *ranks);
}
