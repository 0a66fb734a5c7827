//===- CompilePhases.h - where a JIT compile spends its time ----*- C++ -*-===//

#ifndef TCC_COMPILER_CODEGEN_COMPILEPHASES_H
#define TCC_COMPILER_CODEGEN_COMPILEPHASES_H

namespace tcc {

/// Time spent in one phase: wall time, and the process's CPU time (every
/// thread's, so MLIR's worker threads count; on a shared machine it is
/// what other processes do not inflate).
struct PhaseTime {
  double wallMs = 0;
  double cpuMs = 0;
};

/// Where compileForHost's time goes (`tcc run --timing`,
/// bench/CompileBench.cpp).
struct CompilePhases {
  PhaseTime mlir;        ///< tc to the LLVM dialect, the manifest included
  PhaseTime llvmIr;      ///< translation to LLVM IR and its optimization
  PhaseTime machineCode; ///< the JIT: instruction selection to linked code
};

/// Adds the time from its construction to its destruction to a phase.
class PhaseTimer {
public:
  explicit PhaseTimer(PhaseTime *phase);
  ~PhaseTimer();
  PhaseTimer(const PhaseTimer &) = delete;
  PhaseTimer &operator=(const PhaseTimer &) = delete;

private:
  PhaseTime *phase;
  double wallStart, cpuStart;
};

/// The process's CPU time in milliseconds (CLOCK_PROCESS_CPUTIME_ID).
double processCpuMs();

/// The calling thread's CPU time in milliseconds (CLOCK_THREAD_CPUTIME_ID).
double threadCpuMs();

/// Monotonic wall time in milliseconds.
double wallMs();

} // namespace tcc

#endif // TCC_COMPILER_CODEGEN_COMPILEPHASES_H
