//===- EpilogueInPlace.h - an elementwise op reuses its input --*- C++ -*-===//

#ifndef TCC_COMPILER_PIPELINES_EPILOGUEINPLACE_H
#define TCC_COMPILER_PIPELINES_EPILOGUEINPLACE_H

#include "mlir/Pass/Pass.h"

namespace tcc {

/// An elementwise `linalg.generic` on tensors that computes a function's
/// output, whose init is a fresh `tensor.empty`, and that reads, element for
/// element, a value that a linalg op computed and nothing else reads
/// (`sigmoid(x @ W + b)`'s `x @ W`) takes that value as its init instead and
/// reads it through the init's block argument. One-Shot Bufferize then gives
/// both ops one buffer, and eliminate-empty-tensors makes it the output: the
/// product accumulates in the output and the epilogue runs there in place, with
/// no temporary.
std::unique_ptr<mlir::Pass> createEpilogueInPlacePass();

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_EPILOGUEINPLACE_H
