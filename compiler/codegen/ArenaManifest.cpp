//===- ArenaManifest.cpp - each function's arena plan, in its manifest ----===//

#include "compiler/codegen/ArenaManifest.h"
#include "compiler/pipelines/ArenaPlanAttrs.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

void tcc::recordArenaPlans(ModuleOp module, Manifest &manifest) {
  for (FunctionSpec &spec : manifest.functions) {
    auto func = module.lookupSymbol<func::FuncOp>(spec.name);
    if (!func)
      continue;
    if (auto bytes = func->getAttrOfType<IntegerAttr>(kArenaBytesAttr))
      spec.arenaBytes = bytes.getInt();
    if (auto bytes = func->getAttrOfType<IntegerAttr>(kArenaUnsharedBytesAttr))
      spec.arenaUnsharedBytes = bytes.getInt();
  }
}
