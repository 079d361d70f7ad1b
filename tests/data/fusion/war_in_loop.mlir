// EXPECT: not-fused
// REFERENCE: wrong
// NOTE: Counterexample inside a time loop: the consumer writes A[(i + 1) mod 8], which the producer reads at the next iteration: fusing breaks that WAR dependence (MLIR 22.1.8 fuses it).
func.func @war_in_loop(%A: memref<8xf32>, %C: memref<8xf32>) {
  %half = arith.constant 0.5 : f32
  %B = memref.alloc() : memref<8xf32>
  affine.for %t = 0 to 3 {
    affine.for %i = 0 to 8 {
      %a = affine.load %A[%i] : memref<8xf32>
      %b = arith.mulf %a, %half : f32
      affine.store %b, %B[%i] : memref<8xf32>
    }
    affine.for %i = 0 to 8 {
      %b = affine.load %B[%i] : memref<8xf32>
      %c = affine.load %C[%i] : memref<8xf32>
      %s = arith.addf %b, %c : f32
      affine.store %s, %C[%i] : memref<8xf32>
      affine.store %s, %A[(%i + 1) mod 8] : memref<8xf32>
    }
  }
  return
}
