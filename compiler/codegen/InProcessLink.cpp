//===- InProcessLink.cpp - object code linked into this process -----------===//

#include "compiler/codegen/InProcessLink.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/Support/SmallVectorMemoryBuffer.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;

FailureOr<std::unique_ptr<llvm::orc::LLJIT>>
tcc::linkInProcess(Location loc,
                   std::vector<llvm::SmallVector<char, 0>> objects,
                   llvm::ArrayRef<std::string> libraries) {
  using namespace llvm::orc;
  // Objects only: no IR is compiled here, so the compiler the JIT keeps
  // makes its target machine lazily (never), and no platform runs
  // initializers (the code has none).
  auto jit = LLJITBuilder()
                 .setJITTargetMachineBuilder(JITTargetMachineBuilder(
                     llvm::Triple(llvm::sys::getDefaultTargetTriple())))
                 .setPlatformSetUp(setUpInactivePlatform)
                 .setCompileFunctionCreator(
                     [](JITTargetMachineBuilder machine)
                         -> llvm::Expected<
                             std::unique_ptr<IRCompileLayer::IRCompiler>> {
                       return std::make_unique<ConcurrentIRCompiler>(
                           std::move(machine));
                     })
                 .create();
  if (!jit)
    return emitError(loc) << "cannot start the JIT: "
                          << llvm::toString(jit.takeError());
  JITDylib &main = (*jit)->getMainJITDylib();
  char prefix = (*jit)->getDataLayout().getGlobalPrefix();
  for (const std::string &path : libraries) {
    auto generator = DynamicLibrarySearchGenerator::Load(path.c_str(), prefix);
    if (!generator)
      return emitError(loc) << "cannot load '" << path
                            << "': " << llvm::toString(generator.takeError());
    main.addGenerator(std::move(*generator));
  }
  for (size_t i = 0; i < objects.size(); ++i) {
    auto buffer = std::make_unique<llvm::SmallVectorMemoryBuffer>(
        std::move(objects[i]), "tcc-part-" + std::to_string(i),
        /*RequiresNullTerminator=*/false);
    if (llvm::Error error = (*jit)->addObjectFile(std::move(buffer)))
      return emitError(loc) << "cannot link the JIT's code: "
                            << llvm::toString(std::move(error));
  }
  return std::move(*jit);
}
