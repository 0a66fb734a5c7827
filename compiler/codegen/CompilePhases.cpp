//===- CompilePhases.cpp - where a JIT compile spends its time ------------===//

#include "compiler/codegen/CompilePhases.h"

#include <time.h>

static double clockMs(clockid_t clock) {
  timespec t;
  clock_gettime(clock, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
}

double tcc::processCpuMs() { return clockMs(CLOCK_PROCESS_CPUTIME_ID); }

double tcc::threadCpuMs() { return clockMs(CLOCK_THREAD_CPUTIME_ID); }

double tcc::wallMs() { return clockMs(CLOCK_MONOTONIC); }

tcc::PhaseTimer::PhaseTimer(PhaseTime *phase)
    : phase(phase), wallStart(phase ? wallMs() : 0),
      cpuStart(phase ? processCpuMs() : 0) {}

tcc::PhaseTimer::~PhaseTimer() {
  if (!phase)
    return;
  phase->wallMs += wallMs() - wallStart;
  phase->cpuMs += processCpuMs() - cpuStart;
}
