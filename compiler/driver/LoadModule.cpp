//===- LoadModule.cpp - read a graph file or tc MLIR into a module --------===//

#include "compiler/driver/LoadModule.h"
#include "compiler/frontend/Parser.h"
#include "dialects/tc/IR/TcDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Path.h"

using namespace mlir;

void tcc::registerTccDialects(DialectRegistry &registry) {
  registry.insert<tc::TcDialect, func::FuncDialect, arith::ArithDialect,
                  tensor::TensorDialect>();
}

tcc::InputKind tcc::inputKindOf(StringRef path) {
  return path.ends_with(".mlir") ? InputKind::Mlir : InputKind::GraphFile;
}

/// MLIR's parser recurses once per level of brackets and overflows the stack
/// on deep enough input (a segfault at ~100,000 levels, fewer in a thread);
/// real tc programs nest a few levels. Beyond this, input is rejected before
/// it reaches the parser.
static constexpr int kMaxMlirNesting = 256;

/// Finds the first bracket (`(`, `[`, `{`, `<`) of `text` that opens level
/// kMaxMlirNesting + 1, skipping string literals and `//` comments. A closer
/// that does not match the innermost opener (the `>` of `->`, `>=`) is
/// ignored: the result is a bound, not a parse.
static const char *findTooDeepBracket(StringRef text) {
  llvm::SmallVector<char, 64> open;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (c == '"') {
      for (++i; i < e && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    if (c == '/' && i + 1 < e && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == StringRef::npos)
        break;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<') {
      open.push_back(c);
      if ((int)open.size() > kMaxMlirNesting)
        return text.data() + i;
      continue;
    }
    char opener = c == ')'   ? '('
                  : c == ']' ? '['
                  : c == '}' ? '{'
                  : c == '>' ? '<'
                             : 0;
    if (opener && !open.empty() && open.back() == opener)
      open.pop_back();
  }
  return nullptr;
}

/// Whether a value of `type` could exist: compiled code computes byte sizes
/// and strides in int64, so a static shape whose size in bytes overflows it
/// is rejected, as the GraphBuilder does for graph files.
static bool fitsInMemoryModel(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank())
    return true;
  Type element = shaped.getElementType();
  int64_t bytes = 1;
  if (element.isIntOrFloat())
    bytes = std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
  for (int64_t size : shaped.getShape())
    if (!ShapedType::isDynamic(size) &&
        __builtin_mul_overflow(bytes, size, &bytes))
      return false;
  return true;
}

/// Reports the first value in `module` whose type cannot exist (see
/// fitsInMemoryModel), before any pass computes with its sizes.
static LogicalResult verifySizes(ModuleOp module) {
  auto check = [&](Type type, Location loc) {
    if (fitsInMemoryModel(type))
      return false;
    emitError(loc) << "type " << type
                   << " has too many elements: its size in bytes overflows "
                      "int64";
    return true;
  };
  WalkResult result = module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    bool bad = llvm::any_of(op->getResultTypes(),
                            [&](Type t) { return check(t, op->getLoc()); });
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          bad = bad || check(arg.getType(), arg.getLoc());
    // Types held as attributes: a tc.shared variable's, a declaration's
    // signature.
    for (NamedAttribute attr : op->getAttrs()) {
      auto typeAttr = dyn_cast<TypeAttr>(attr.getValue());
      if (!typeAttr)
        continue;
      Type type = typeAttr.getValue();
      if (auto fn = dyn_cast<FunctionType>(type))
        for (Type t : llvm::concat<const Type>(fn.getInputs(), fn.getResults()))
          bad = bad || check(t, op->getLoc());
      bad = bad || check(type, op->getLoc());
    }
    return bad ? WalkResult::interrupt() : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

OwningOpRef<ModuleOp>
tcc::parseModule(llvm::SourceMgr &sourceMgr, MLIRContext *context,
                 InputKind kind, StringRef inputPath,
                 const frontend::GraphFileOptions &graphOptions) {
  if (kind == InputKind::GraphFile) {
    frontend::GraphFileOptions options = graphOptions;
    if (!options.baseDirectory && !inputPath.empty())
      options.baseDirectory =
          inputPath == "-" ? "" : llvm::sys::path::parent_path(inputPath).str();
    return frontend::parseGraphFile(sourceMgr, context, options);
  }
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  if (const char *deep = findTooDeepBracket(buffer->getBuffer())) {
    auto [line, col] =
        sourceMgr.getLineAndColumn(llvm::SMLoc::getFromPointer(deep));
    emitError(
        FileLineColLoc::get(context, buffer->getBufferIdentifier(), line, col))
        << "brackets nest more than " << kMaxMlirNesting << " levels deep";
    return nullptr;
  }
  ParserConfig config(context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  if (!module || failed(verify(*module)) || failed(verifySizes(*module)))
    return nullptr;
  return module;
}
