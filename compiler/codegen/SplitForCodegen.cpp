//===- SplitForCodegen.cpp - an LLVM-dialect module in parts --------------===//

#include "compiler/codegen/SplitForCodegen.h"
#include "compiler/pipelines/Pipelines.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <algorithm>

using namespace mlir;

namespace {

bool isNoInline(LLVM::LLVMFuncOp f) {
  if (f.getNoInline().value_or(false))
    return true;
  std::optional<ArrayAttr> passthrough = f.getPassthrough();
  if (!passthrough)
    return false;
  return llvm::any_of(*passthrough, [](Attribute a) {
    auto s = dyn_cast<StringAttr>(a);
    return s && s.getValue() == "noinline";
  });
}

int64_t opCount(Operation *op) {
  int64_t n = 0;
  op->walk([&](Operation *) { ++n; });
  return n;
}

/// The symbols `op` refers to from inside its body.
llvm::SmallVector<StringAttr> referencedSymbols(Operation *op) {
  llvm::SmallVector<StringAttr> names;
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(&op->getRegion(0)))
    for (const SymbolTable::SymbolUse &use : *uses)
      names.push_back(use.getSymbolRef().getRootReference());
  return names;
}

/// A unit of the cut: a root function and the non-root functions it
/// reaches, which travel with it.
struct Unit {
  LLVM::LLVMFuncOp root;
  llvm::StringRef name;                 ///< the root's
  llvm::SetVector<Operation *> helpers; ///< reached non-root functions
  llvm::SetVector<StringAttr> outside;  ///< roots, declarations, globals
  int64_t size = 0;
};

} // namespace

llvm::SmallVector<tcc::CodegenPart>
tcc::splitForCodegen(ModuleOp module, unsigned maxParts, int64_t minOps) {
  if (maxParts < 2)
    return {};
  llvm::DenseMap<StringAttr, Operation *> byName;
  llvm::SmallVector<LLVM::LLVMFuncOp> roots;
  int64_t total = 0;
  std::string entryPrefix = entryPointName("");
  for (Operation &op : module.getBody()->getOperations()) {
    if (auto global = dyn_cast<LLVM::GlobalOp>(op)) {
      // A constant is copied into each part that reads it, so it must be
      // local to its module; anything else is not cut.
      LLVM::Linkage linkage = global.getLinkage();
      if (!global.getConstant() || (linkage != LLVM::Linkage::Private &&
                                    linkage != LLVM::Linkage::Internal))
        return {};
      byName[global.getSymNameAttr()] = global;
      continue;
    }
    auto func = dyn_cast<LLVM::LLVMFuncOp>(op);
    if (!func)
      return {};
    byName[func.getSymNameAttr()] = func;
    if (func.isExternal())
      continue;
    total += opCount(func);
    if (func.getSymName().starts_with(entryPrefix) || isNoInline(func))
      roots.push_back(func);
  }
  if (total < minOps || roots.size() < 2)
    return {};

  // A helper is a defined function that is not a unit's root.
  llvm::DenseSet<Operation *> rootSet;
  for (LLVM::LLVMFuncOp root : roots)
    rootSet.insert(root);
  auto isHelper = [&](Operation *op) {
    auto f = dyn_cast<LLVM::LLVMFuncOp>(op);
    return f && !f.isExternal() && !rootSet.contains(op);
  };

  // Each root with what it reaches, stopping at other roots.
  llvm::SmallVector<Unit> units;
  for (LLVM::LLVMFuncOp root : roots) {
    Unit unit;
    unit.root = root;
    unit.name = root.getSymName();
    unit.size = opCount(root);
    llvm::SmallVector<Operation *> work = {root};
    while (!work.empty()) {
      Operation *op = work.pop_back_val();
      for (StringAttr name : referencedSymbols(op)) {
        Operation *target = byName.lookup(name);
        if (!target)
          return {}; // a symbol this cut does not know: compile whole
        if (isHelper(target)) {
          if (unit.helpers.insert(target)) {
            unit.size += opCount(target);
            work.push_back(target);
          }
        } else if (target != root.getOperation()) {
          unit.outside.insert(name);
        }
      }
    }
    units.push_back(std::move(unit));
  }

  // Largest first, each to the lightest part (names break ties, so that
  // the same module is always cut the same way).
  std::sort(units.begin(), units.end(), [](const Unit &a, const Unit &b) {
    if (a.size != b.size)
      return a.size > b.size;
    return a.name < b.name;
  });
  unsigned partCount = std::min<size_t>(maxParts, units.size());
  llvm::SmallVector<int64_t> load(partCount, 0);
  llvm::SmallVector<llvm::SmallVector<const Unit *>> members(partCount);
  llvm::DenseMap<Operation *, unsigned> partOfRoot;
  for (const Unit &unit : units) {
    unsigned lightest =
        std::min_element(load.begin(), load.end()) - load.begin();
    load[lightest] += unit.size;
    members[lightest].push_back(&unit);
    partOfRoot[unit.root] = lightest;
  }

  llvm::SmallVector<CodegenPart> parts(partCount);
  for (unsigned p = 0; p < partCount; ++p) {
    OpBuilder b(module.getContext());
    parts[p].module = ModuleOp::create(module.getLoc());
    ModuleOp part = *parts[p].module;
    part->setAttrs(module->getAttrDictionary());
    b.setInsertionPointToEnd(part.getBody());

    llvm::SetVector<Operation *> defined, declared;
    for (const Unit *unit : members[p]) {
      defined.insert(unit->root);
      defined.insert(unit->helpers.begin(), unit->helpers.end());
    }
    for (const Unit *unit : members[p])
      for (StringAttr name : unit->outside) {
        Operation *target = byName.lookup(name);
        if (!defined.contains(target))
          declared.insert(target);
      }
    // Module order, so that a part reads like the module it came from.
    for (Operation &op : module.getBody()->getOperations()) {
      if (defined.contains(&op)) {
        b.clone(op);
        continue;
      }
      if (!declared.contains(&op))
        continue;
      if (isa<LLVM::GlobalOp>(op)) {
        b.clone(op); // a local constant: this part's own copy
        continue;
      }
      auto decl = cast<LLVM::LLVMFuncOp>(b.insert(op.cloneWithoutRegions()));
      decl.setLinkage(LLVM::Linkage::External);
      decl->removeAttr(SymbolTable::getVisibilityAttrName());
    }
  }

  // A root that another part calls is external there and here, hidden so
  // that a shared object exports only its entry points.
  for (unsigned p = 0; p < partCount; ++p)
    for (Operation &op : parts[p].module->getBody()->getOperations()) {
      auto decl = dyn_cast<LLVM::LLVMFuncOp>(op);
      if (!decl || !decl.isExternal() || !byName.count(decl.getSymNameAttr()))
        continue;
      Operation *original = byName.lookup(decl.getSymNameAttr());
      auto owner = partOfRoot.find(original);
      if (owner == partOfRoot.end())
        continue; // a declaration in the module too
      auto &other = parts[owner->second];
      other.calledFromOtherParts.insert(decl.getSymName());
      auto def =
          SymbolTable::lookupSymbolIn(*other.module, decl.getSymNameAttr());
      auto defFunc = cast<LLVM::LLVMFuncOp>(def);
      defFunc.setLinkage(LLVM::Linkage::External);
      defFunc.setVisibility_(LLVM::Visibility::Hidden);
      decl.setVisibility_(LLVM::Visibility::Hidden);
    }
  return parts;
}
