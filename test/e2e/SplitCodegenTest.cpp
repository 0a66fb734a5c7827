//===- SplitCodegenTest.cpp - a program compiled in parts -----------------===//
//
// A large module is cut into parts that LLVM compiles on several threads
// (compiler/codegen/SplitForCodegen.cpp, MachineCode.cpp). The cut must
// define every kernel and entry point once, let the parts call each other
// (hidden, so a shared object exports only its entry points), and give the
// reference's answers. Small graphs are split here by lowering the size
// from which a module is cut.
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include "compiler/codegen/LowerWithManifest.h"
#include "compiler/codegen/SplitForCodegen.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Verifier.h"

#include <map>
#include <set>

using namespace tcc::e2e;
using DT = tcc::reference::DTypeKind;

namespace {

std::string mlpTrain() { return readFile(TCC_EXAMPLES_DIR "/mlp_train.tg"); }

tcc::PipelineOptions splitInto(unsigned parts) {
  tcc::PipelineOptions options;
  options.codegenThreads = parts;
  options.codegenSplitMinOps = 0;
  return options;
}

bool isRoot(mlir::LLVM::LLVMFuncOp f) {
  if (f.getSymName().starts_with(tcc::entryPointName("")))
    return true;
  std::optional<mlir::ArrayAttr> passthrough = f.getPassthrough();
  return passthrough && llvm::any_of(*passthrough, [](mlir::Attribute a) {
           auto s = mlir::dyn_cast<mlir::StringAttr>(a);
           return s && s.getValue() == "noinline";
         });
}

} // namespace

TEST_CASE("a module is cut into parts that define each kernel once",
          "[split]") {
  tcc::CompilerOptions options;
  options.diagnostics = tcc::DiagnosticMode::Capture;
  options.threading = false;
  tcc::Compiler compiler(options);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      compiler.parseText(mlpTrain(), "mlp_train.tg");
  REQUIRE(module);
  REQUIRE(succeeded(tcc::lowerWithManifest(*module, {})));

  std::set<std::string> roots;
  for (auto f : module->getOps<mlir::LLVM::LLVMFuncOp>())
    if (!f.isExternal() && isRoot(f))
      roots.insert(f.getSymName().str());
  REQUIRE(roots.size() >= 3);

  // Below the size from which modules are cut, and on one thread, the
  // module compiles whole.
  CHECK(tcc::splitForCodegen(*module, 3, int64_t(1) << 40).empty());
  CHECK(tcc::splitForCodegen(*module, 1, 0).empty());

  llvm::SmallVector<tcc::CodegenPart> parts =
      tcc::splitForCodegen(*module, 3, 0);
  REQUIRE(parts.size() == 3);
  std::map<std::string, int> definitions;
  std::map<std::string, size_t> owner;
  for (size_t p = 0; p < parts.size(); ++p) {
    INFO("part " << p);
    REQUIRE(succeeded(mlir::verify(*parts[p].module)));
    for (auto f : parts[p].module->getOps<mlir::LLVM::LLVMFuncOp>()) {
      if (f.isExternal() || !roots.count(f.getSymName().str()))
        continue;
      ++definitions[f.getSymName().str()];
      owner[f.getSymName().str()] = p;
    }
  }
  for (const std::string &root : roots) {
    INFO(root);
    CHECK(definitions[root] == 1);
  }

  // Every call into another part is to a function that part defines with
  // external linkage and hidden visibility, and lists as called from
  // outside.
  int crossCalls = 0;
  for (size_t p = 0; p < parts.size(); ++p)
    for (auto f : parts[p].module->getOps<mlir::LLVM::LLVMFuncOp>()) {
      std::string name = f.getSymName().str();
      if (!f.isExternal() || !roots.count(name))
        continue;
      INFO("part " << p << " declares " << name);
      ++crossCalls;
      REQUIRE(owner.count(name));
      CHECK(owner[name] != p);
      CHECK(f.getVisibility_() == mlir::LLVM::Visibility::Hidden);
      tcc::CodegenPart &other = parts[owner[name]];
      CHECK(other.calledFromOtherParts.contains(name));
      auto def =
          mlir::SymbolTable::lookupSymbolIn(*other.module, f.getSymNameAttr());
      auto defFunc = mlir::cast<mlir::LLVM::LLVMFuncOp>(def);
      CHECK(defFunc.getLinkage() == mlir::LLVM::Linkage::External);
      CHECK(defFunc.getVisibility_() == mlir::LLVM::Visibility::Hidden);
    }
  CHECK(crossCalls > 0);

  // The same module is always cut the same way.
  llvm::SmallVector<tcc::CodegenPart> again =
      tcc::splitForCodegen(*module, 3, 0);
  REQUIRE(again.size() == parts.size());
  for (size_t p = 0; p < parts.size(); ++p) {
    std::string a, b;
    llvm::raw_string_ostream as(a), bs(b);
    parts[p].module->print(as);
    again[p].module->print(bs);
    CHECK(a == b);
  }
}

TEST_CASE("a training step compiled in parts gives the reference's answers",
          "[split]") {
  Random rng(2201);
  for (unsigned parts : {2u, 5u}) {
    INFO(parts << " parts");
    Graph g(mlpTrain(), "mlp_train.tg", splitInto(parts));
    // Batches below and above the parallel grain: both paths of each
    // parallel loop, the outlined body called here and on the pool.
    for (int64_t n : {int64_t(5), int64_t(700)}) {
      INFO("N = " << n);
      g.call("train_step",
             {rng.uniform(DT::F32, {n, 64}),
              rng.uniform(DT::F32, {n, 10}, 0, 1),
              rng.uniform(DT::F32, {}, 0.01, 0.1)},
             {1e-4, 1e-5});
      g.call(
          "evaluate",
          {rng.uniform(DT::F32, {n, 64}), rng.uniform(DT::F32, {n, 10}, 0, 1)},
          {1e-4, 1e-5});
    }
  }
}
