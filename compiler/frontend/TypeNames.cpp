//===- TypeNames.cpp - graph-file names of element types and tensors ------===//
//
// "f32", "i64[N, 3]": the spellings the graph language and the frontend's
// messages use for element types and tensors.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/GraphBuilder.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tcc;
using tc::Shape;

std::string tcc::elementTypeName(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "f32";
  if (type.isF64())
    return "f64";
  if (type.isInteger(1))
    return "bool";
  if (type.isInteger(32))
    return "i32";
  if (type.isInteger(64))
    return "i64";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

Type tcc::parseElementType(MLIRContext *context, StringRef name) {
  Builder b(context);
  return llvm::StringSwitch<Type>(name)
      .Case("f16", b.getF16Type())
      .Case("bf16", b.getBF16Type())
      .Case("f32", b.getF32Type())
      .Case("f64", b.getF64Type())
      .Cases("bool", "i1", b.getI1Type())
      .Case("i32", b.getI32Type())
      .Case("i64", b.getI64Type())
      .Default(Type());
}

std::string tcc::describeTensor(Type elementType, const Shape &shape) {
  return elementTypeName(elementType) + tc::formatShape(shape);
}
