// The tcc runtime's public API in one include (no MLIR or LLVM inside).
#ifndef TCC_RUNTIME_TCC_RUNTIME_H
#define TCC_RUNTIME_TCC_RUNTIME_H

#include "runtime/core/Array.h"
#include "runtime/core/Buffer.h"
#include "runtime/core/Counters.h"
#include "runtime/core/DType.h"
#include "runtime/core/Device.h"
#include "runtime/core/DeviceArray.h"
#include "runtime/core/Half.h"
#include "runtime/core/Npy.h"
#include "runtime/core/Shape.h"
#include "runtime/core/SharedStore.h"
#include "runtime/core/SharedVariable.h"
#include "runtime/core/Status.h"
#include "runtime/core/Value.h"
#include "runtime/exec/Function.h"
#include "runtime/exec/Initializers.h"
#include "runtime/exec/Manifest.h"
#include "runtime/exec/Program.h"
#include "runtime/exec/Runtime.h"
#include "runtime/host/HostMemory.h"
#include "runtime/loader/ManifestText.h"
#include "runtime/loader/SharedObject.h"
#include "runtime/train/BatchFeed.h"
#include "runtime/train/OutputHistory.h"
#include "runtime/train/TrainingLoop.h"

#endif // TCC_RUNTIME_TCC_RUNTIME_H
