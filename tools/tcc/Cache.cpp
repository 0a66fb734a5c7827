//===- Cache.cpp - tcc cache: list, clear, stats -------------------------===//
//
// Manages the persistent compile cache that `tcc run` reads and fills
// (compiler/cache): what is in it, how big it is, and emptying it.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "compiler/cache/CacheSettings.h"
#include "compiler/cache/CompileCache.h"
#include "compiler/cache/CompilerIdentity.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <ctime>

using namespace tcc::cli;
namespace cl = llvm::cl;

namespace {

enum class Action { List, Clear, Stats };

/// The options of `tcc cache`; they exist only while it runs.
struct CacheOptions {
  cl::OptionCategory category{"tcc cache options"};
  // A plain string: "stats" as an enum value would clash with LLVM's own
  // -stats option.
  cl::opt<std::string> action{
      cl::Positional, cl::desc("<list | clear | stats>"), cl::cat(category)};
  cl::opt<std::string> cacheDir{
      "cache-dir",
      cl::desc("The cache directory (default: TCC_CACHE_DIR, else "
               "$XDG_CACHE_HOME/tcc or ~/.cache/tcc)"),
      cl::value_desc("dir"), cl::cat(category)};
  cl::opt<std::string> cacheMaxBytes{
      "cache-max-bytes",
      cl::desc("The size bound (default: TCC_CACHE_MAX_BYTES, else 1G)"),
      cl::value_desc("size"), cl::cat(category)};
};

std::string utcTime(int64_t seconds) {
  std::time_t t = static_cast<std::time_t>(seconds);
  std::tm parts;
  char text[32];
  if (!gmtime_r(&t, &parts) ||
      !std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts))
    return "?";
  return text;
}

std::string sizeWithBytes(uint64_t bytes) {
  return tcc::formatByteSize(bytes) + " (" + std::to_string(bytes) + " bytes)";
}

} // namespace

int tcc::cli::runCache(int argc, char **argv) {
  CacheOptions opts;
  cl::HideUnrelatedOptions(opts.category);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (!cl::ParseCommandLineOptions(
          argc, argv, "tcc cache: manage the compile cache\n", &errorStream)) {
    llvm::errs() << errors;
    return kBadUsage;
  }
  Action action;
  if (opts.action == "list")
    action = Action::List;
  else if (opts.action == "clear")
    action = Action::Clear;
  else if (opts.action == "stats")
    action = Action::Stats;
  else {
    llvm::errs() << "tcc cache: error: "
                 << (opts.action.empty()
                         ? std::string("missing action")
                         : "unknown action '" + opts.action.getValue() + "'")
                 << " (usage: tcc cache list|clear|stats [--cache-dir=DIR])\n";
    return kBadUsage;
  }
  CacheFlags flags;
  flags.directory = opts.cacheDir;
  flags.maxBytes = opts.cacheMaxBytes;
  Result<CacheSettings> settings = resolveCacheSettings(flags);
  if (!settings.ok()) {
    llvm::errs() << "tcc cache: error: " << settings.status().message() << "\n";
    return kBadUsage;
  }
  if (settings->directory.empty()) {
    llvm::errs() << "tcc cache: error: " << settings->disabledBy << "\n";
    return kBadUsage;
  }
  CompileCache cache(settings->directory, settings->maxBytes);

  switch (action) {
  case Action::List:
    for (const CacheListing &entry : cache.list())
      llvm::outs() << llvm::StringRef(entry.info.key).take_front(12) << "  "
                   << llvm::right_justify(formatByteSize(entry.fileBytes), 10)
                   << "  " << utcTime(entry.lastUsedNs / 1000000000) << "  "
                   << (entry.readable ? entry.info.source
                                      : std::string("(unreadable header)"))
                   << "  " << llvm::join(entry.info.functions, ",") << "\n";
    return kSuccess;
  case Action::Clear: {
    Result<size_t> removed = cache.clear();
    if (!removed.ok()) {
      llvm::errs() << "tcc cache: error: " << removed.status().message()
                   << "\n";
      return kBadInput;
    }
    llvm::outs() << "removed " << *removed
                 << (*removed == 1 ? " entry" : " entries") << " from "
                 << cache.directory() << "\n";
    return kSuccess;
  }
  case Action::Stats: {
    CacheTotals totals = cache.totals();
    llvm::outs() << "directory: " << cache.directory() << "\n"
                 << "enabled: "
                 << (settings->enabled ? std::string("yes")
                                       : "no (" + settings->disabledBy + ")")
                 << "\n"
                 << "entries: " << totals.entries << "\n"
                 << "size: " << sizeWithBytes(totals.bytes) << "\n"
                 << "bound: " << sizeWithBytes(cache.maxBytes()) << "\n"
                 << "hits: " << totals.hits << "\n"
                 << "misses: " << totals.misses << "\n"
                 << "compiler: " << compilerVersionText() << "\n";
    return kSuccess;
  }
  }
  return kSuccess;
}
