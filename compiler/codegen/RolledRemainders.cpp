//===- RolledRemainders.cpp - no runtime unrolling of scalar remainders ---===//

#include "compiler/codegen/RolledRemainders.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

/// The loop's ID with the follow-up attributes of its vectorized
/// remainder added: its own ID, self-referential as LLVM wants it.
static MDNode *withRolledRemainder(Loop &loop) {
  LLVMContext &context = loop.getHeader()->getContext();
  SmallVector<Metadata *> operands = {nullptr}; // the self reference
  if (MDNode *id = loop.getLoopID()) {
    for (const MDOperand &op : llvm::drop_begin(id->operands())) {
      auto *node = dyn_cast<MDNode>(op.get());
      auto *name = node && node->getNumOperands() > 0
                       ? dyn_cast<MDString>(node->getOperand(0))
                       : nullptr;
      if (name && name->getString() == tcc::kRemainderFollowup)
        return nullptr; // already asked
      operands.push_back(op.get());
    }
  }
  Metadata *noRuntimeUnroll = MDNode::get(
      context, MDString::get(context, "llvm.loop.unroll.runtime.disable"));
  Metadata *vectorized =
      MDNode::get(context, {MDString::get(context, "llvm.loop.isvectorized"),
                            ConstantAsMetadata::get(ConstantInt::get(
                                Type::getInt32Ty(context), 1))});
  operands.push_back(
      MDNode::get(context, {MDString::get(context, tcc::kRemainderFollowup),
                            noRuntimeUnroll, vectorized}));
  MDNode *id = MDNode::getDistinct(context, operands);
  id->replaceOperandWith(0, id);
  return id;
}

PreservedAnalyses
tcc::RolledRemaindersPass::run(Function &function,
                               FunctionAnalysisManager &analyses) {
  LoopInfo &loops = analyses.getResult<LoopAnalysis>(function);
  for (Loop *loop : loops.getLoopsInPreorder())
    if (loop->isInnermost() && loop->getLoopLatch())
      if (MDNode *id = withRolledRemainder(*loop))
        loop->setLoopID(id);
  // Metadata only: no instruction, block or edge changed.
  return PreservedAnalyses::all();
}
