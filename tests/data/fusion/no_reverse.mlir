// EXPECT: not-fused
// NOTE: Counterexample: the consumer reverses T in place; recomputing T[7 - i] inside it would undo its own earlier writes.
func.func @no_reverse(%A: memref<8xf32>, %T: memref<8xf32>) {
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 8 {
    %a = affine.load %A[%i] : memref<8xf32>
    %d = arith.addf %a, %a : f32
    affine.store %d, %T[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    %t = affine.load %T[7 - %i] : memref<8xf32>
    %s = arith.addf %t, %one : f32
    affine.store %s, %T[%i] : memref<8xf32>
  }
  return
}
