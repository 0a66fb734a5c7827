// RUN: tc-opt %s -tc-check-exit="gpu=true" -split-input-file -verify-diagnostics

// On the GPU a shared variable written before the checks end is still a
// compile error (the host saves and restores it; device buffers not yet).
func.func @early(%E: memref<4xi64> {bufferization.writable = true, tc.shared = @E}) -> memref<4xi64> attributes {tc.index_checks = [{kind = "take", where = "f.tg:3:7"}]} {
  %c0 = arith.constant 0 : index
  %k = arith.constant 1 : i64
  %rec = memref.alloc() : memref<4xi64>
  // expected-error @+1 {{the ids that 'early' checks are computed into shared variable 'E', which the call updates: a refused call would change it; compute the ids separately from the update}}
  memref.store %k, %E[%c0] : memref<4xi64>
  memref.store %k, %rec[%c0] : memref<4xi64>
  return %rec : memref<4xi64>
}
