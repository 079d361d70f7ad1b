// EXPECT: not-fused
// NOTE: Counterexample: the producer also returns a reduction (iter_args) used after the loops; it is never fused.
func.func @no_iter_args(%A: memref<8xf32>, %B: memref<8xf32>, %S: memref<1xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = affine.for %i = 0 to 8 iter_args(%acc = %zero) -> (f32) {
    %a = affine.load %A[%i] : memref<8xf32>
    %d = arith.addf %a, %a : f32
    affine.store %d, %B[%i] : memref<8xf32>
    %n = arith.addf %acc, %a : f32
    affine.yield %n : f32
  }
  affine.for %i = 0 to 8 {
    %b = affine.load %B[%i] : memref<8xf32>
    %c = arith.addf %b, %s : f32
    affine.store %c, %A[%i] : memref<8xf32>
  }
  affine.store %s, %S[0] : memref<1xf32>
  return
}
