//===- MemrefAlloc.cpp - temporaries of compiled code ---------------------===//
//
// The host pipeline lowers `memref.alloc`/`memref.dealloc` with
// finalize-memref-to-llvm's generic functions, so compiled code calls these
// three instead of `malloc`/`aligned_alloc`/`free`. They hand the request to
// the runtime's host caching allocator (`tcc_host_alloc`/`tcc_host_free`,
// runtime/host/HostAllocEntry.cpp) when the process has the runtime, which it
// has whenever a Function calls the code: a temporary then reuses the memory
// of the previous call's, without page faults, and a large one is a 2 MiB
// aligned mapping advised for huge pages. Without the runtime (a process
// that calls compiled code by itself), the C library serves them. The choice
// is made once per process, so a block is always freed where it came from.
// Plain C ABI: no exceptions, no libstdc++.
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <cstdlib>
#include <dlfcn.h>

namespace {

using AllocFn = void *(*)(size_t);
using FreeFn = void (*)(void *);

AllocFn hostAlloc = nullptr;
FreeFn hostFree = nullptr;
int resolved = 0;

/// The runtime's allocator when the process has it. Threads that race here
/// find the same symbols, so their stores agree.
void resolve() {
  if (__atomic_load_n(&resolved, __ATOMIC_ACQUIRE))
    return;
  void *a = dlsym(RTLD_DEFAULT, "tcc_host_alloc");
  void *f = dlsym(RTLD_DEFAULT, "tcc_host_free");
  if (a && f) {
    __atomic_store_n(&hostAlloc, reinterpret_cast<AllocFn>(a),
                     __ATOMIC_RELAXED);
    __atomic_store_n(&hostFree, reinterpret_cast<FreeFn>(f), __ATOMIC_RELAXED);
  }
  __atomic_store_n(&resolved, 1, __ATOMIC_RELEASE);
}

/// The runtime's blocks are 64-byte aligned.
constexpr size_t kHostAlignment = 64;

} // namespace

extern "C" {

__attribute__((visibility("default"))) void *
_mlir_memref_to_llvm_alloc(size_t size) {
  resolve();
  if (AllocFn alloc = __atomic_load_n(&hostAlloc, __ATOMIC_RELAXED))
    return alloc(size);
  return std::malloc(size);
}

__attribute__((visibility("default"))) void *
_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size) {
  resolve();
  AllocFn alloc = __atomic_load_n(&hostAlloc, __ATOMIC_RELAXED);
  if (alloc && alignment <= kHostAlignment)
    return alloc(size);
  // aligned_alloc wants a multiple of the alignment.
  size_t rounded = (size + alignment - 1) / alignment * alignment;
  return std::aligned_alloc(alignment, rounded ? rounded : alignment);
}

__attribute__((visibility("default"))) void
_mlir_memref_to_llvm_free(void *ptr) {
  resolve();
  if (FreeFn release = __atomic_load_n(&hostFree, __ATOMIC_RELAXED))
    release(ptr); // gives unknown pointers to free()
  else
    std::free(ptr);
}

} // extern "C"
