//===- CompilerIdentity.cpp - which compiler produced an artifact ---------===//

#include "compiler/cache/CompilerIdentity.h"
#include "compiler/cache/BuildInfo.h"
#include "compiler/pipelines/MatmulToBlas.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <elf.h>
#include <link.h>

namespace {

/// The GNU build id of one loaded object, read from its PT_NOTE segments;
/// empty when the linker wrote none.
std::string buildIdOf(const dl_phdr_info &info) {
  for (int i = 0; i < info.dlpi_phnum; ++i) {
    const ElfW(Phdr) &phdr = info.dlpi_phdr[i];
    if (phdr.p_type != PT_NOTE)
      continue;
    const char *at =
        reinterpret_cast<const char *>(info.dlpi_addr + phdr.p_vaddr);
    const char *end = at + phdr.p_memsz;
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      const auto *note = reinterpret_cast<const ElfW(Nhdr) *>(at);
      const char *name = at + sizeof(ElfW(Nhdr));
      const char *desc = name + ((note->n_namesz + 3) & ~3u);
      if (desc + note->n_descsz > end)
        break;
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
          llvm::StringRef(name, 3) == "GNU") {
        std::string hex;
        llvm::raw_string_ostream os(hex);
        for (unsigned j = 0; j < note->n_descsz; ++j)
          os << llvm::format_hex_no_prefix(static_cast<unsigned char>(desc[j]),
                                           2);
        return hex;
      }
      at = desc + ((note->n_descsz + 3) & ~3u);
    }
  }
  return "";
}

/// "size:mtime" of a file: the fallback identity of an object without a
/// build id, and the identity of the kernels archive (linked into artifacts).
std::string fileStamp(const std::string &path) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status))
    return "missing";
  return std::to_string(status.getSize()) + ":" +
         std::to_string(llvm::sys::toTimeT(status.getLastModificationTime()));
}

struct Scan {
  uintptr_t self = 0; // an address inside the code of this file
  std::string ids;
};

/// Whether one of the object's loaded segments holds `address`.
bool holds(const dl_phdr_info &info, uintptr_t address) {
  for (int i = 0; i < info.dlpi_phnum; ++i) {
    const ElfW(Phdr) &phdr = info.dlpi_phdr[i];
    uintptr_t start = info.dlpi_addr + phdr.p_vaddr;
    if (phdr.p_type == PT_LOAD && address >= start &&
        address < start + phdr.p_memsz)
      return true;
  }
  return false;
}

int visit(dl_phdr_info *info, size_t, void *data) {
  Scan &scan = *static_cast<Scan *>(data);
  llvm::StringRef name = info->dlpi_name ? info->dlpi_name : "";
  llvm::StringRef file =
      name.rsplit('/').second.empty() ? name : name.rsplit('/').second;
  bool isSelf = holds(*info, scan.self);
  bool isDependency =
      file.starts_with("libMLIR") || file.starts_with("libLLVM") ||
      file.starts_with("libmlir") || file.starts_with("libtcc_runtime");
  if (!isSelf && !isDependency)
    return 0;
  std::string id = buildIdOf(*info);
  if (id.empty()) {
    // No build id: the file's size and time say when it was rebuilt.
    std::string path = name.empty() ? "/proc/self/exe" : name.str();
    id = "stamp:" + fileStamp(path);
  }
  scan.ids += (isSelf ? std::string("self") : file.str()) + "=" + id + ";";
  return 0;
}

} // namespace

std::string tcc::compilerVersionText() {
  std::string git = TCC_BUILD_GIT_HASH;
  return std::string("tcc ") + TCC_BUILD_VERSION + " (" +
         (git.empty() ? "" : "git " + git + ", ") +
         "LLVM " LLVM_VERSION_STRING ")";
}

const std::string &tcc::compilerIdentity() {
  static const std::string identity = [] {
    Scan scan;
    scan.self = reinterpret_cast<uintptr_t>(&visit);
    dl_iterate_phdr(visit, &scan);
    // Artifacts link the kernels in from the archive.
    std::string kernels = kernelsArchivePath();
    return compilerVersionText() + ";" + scan.ids + "kernels=" + kernels + ":" +
           fileStamp(kernels);
  }();
  return identity;
}
