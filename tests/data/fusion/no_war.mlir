// EXPECT: not-fused
// REFERENCE: wrong
// NOTE: Counterexample: the producer reads B[i - 1], which the consumer overwrites at iteration i - 1: no fusion preserves that WAR dependence.
func.func @no_war(%B: memref<9xf32>, %C: memref<9xf32>) {
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %T = memref.alloc() : memref<9xf32>
  affine.for %i = 1 to 9 {
    %b = affine.load %B[%i - 1] : memref<9xf32>
    %t = arith.mulf %b, %two : f32
    affine.store %t, %T[%i] : memref<9xf32>
  }
  affine.for %i = 1 to 9 {
    %t = affine.load %T[%i] : memref<9xf32>
    %s = arith.addf %t, %one : f32
    affine.store %s, %B[%i] : memref<9xf32>
    affine.store %t, %C[%i] : memref<9xf32>
  }
  return
}
