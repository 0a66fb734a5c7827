//===- ManifestText.h - the manifest as text, and back -------------------===//
//
// Artifacts carry their manifest as text (in a shared object, the string
// symbol `tcc_manifest`), so a host that links only the runtime can load
// them. The format is line-based and versioned:
//
//   tcc-manifest 1
//   target cuda                 (absent: host)
//   shared W f32 784,10 normal mean=0 std=0.01 seed=0
//   shared w f32 2,3 npy path=weights%20a.npy
//   function predict
//   arg input x f32 N,784 borrow
//   arg shared W f32 784,10
//   arg output p f32 N,10
//   output p 2 borrow internal
//   update W
//   copy <free text>
//   end
//
// Names and values are percent-encoded where they hold spaces, '%', or '='.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LOADER_MANIFESTTEXT_H
#define TCC_RUNTIME_LOADER_MANIFESTTEXT_H

#include "runtime/core/Status.h"
#include "runtime/exec/Manifest.h"

#include <string>

namespace tcc {

/// The version of the artifact ABI, written on the manifest's first line. An
/// artifact of another version is refused with a message, never run. Bump it
/// with any change that an artifact from the other side would misread: the
/// manifest grammar, the entry points' calling convention (one array of
/// memref descriptor pointers, runtime/exec/MemrefDescriptor.h), or what
/// artifacts expect from the loading process (docs/embedding.md).
constexpr int kManifestVersion = 1;

/// The text form of a manifest.
std::string printManifest(const Manifest &manifest);

/// Parses the text form; errors name the line.
Result<Manifest> parseManifest(const std::string &text);

} // namespace tcc

#endif // TCC_RUNTIME_LOADER_MANIFESTTEXT_H
