//===- ArenaPlanAttrs.h - the arena plan's marks in the IR ----*- C++ -*-===//
//
// tcc-plan-arena marks what it decided, and the manifest builder, the
// kernel outliner and the dumps read the marks.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_PIPELINES_ARENAPLANATTRS_H
#define TCC_COMPILER_PIPELINES_ARENAPLANATTRS_H

namespace tcc {

/// On the one `memref.alloc` of a function's arena.
constexpr const char *kArenaAttr = "tcc.arena";
/// On the function: the arena's bytes (i64).
constexpr const char *kArenaBytesAttr = "tcc.arena_bytes";
/// On the function: the bytes its planned temporaries would take if none
/// shared memory (each rounded up to the arena's alignment).
constexpr const char *kArenaUnsharedBytesAttr = "tcc.arena_unshared_bytes";

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_ARENAPLANATTRS_H
