//===- tc-opt.cpp - mlir-opt with the tc dialect and our passes -----------===//
//
// Registers exactly what tcc's pipelines use, so that every stage tcc runs
// can be replayed pass by pass.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Registration.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  tcc::registerCompilerPasses();
  mlir::DialectRegistry registry;
  tcc::registerCompilerDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tc optimizer driver\n", registry));
}
