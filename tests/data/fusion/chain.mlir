// EXPECT: fused
// NOTE: A pointwise producer-consumer chain through two local buffers (fully fused, buffers shrink to one element).
func.func @chain(%A: memref<9xf32>, %D: memref<9xf32>) {
  %one = arith.constant 1.0 : f32
  %B = memref.alloc() : memref<9xf32>
  %C = memref.alloc() : memref<9xf32>
  affine.for %i = 0 to 9 {
    %a = affine.load %A[%i] : memref<9xf32>
    %b = arith.addf %a, %a : f32
    affine.store %b, %B[%i] : memref<9xf32>
  }
  affine.for %i = 0 to 9 {
    %b = affine.load %B[%i] : memref<9xf32>
    %c = arith.addf %b, %one : f32
    affine.store %c, %C[%i] : memref<9xf32>
  }
  affine.for %i = 0 to 9 {
    %c = affine.load %C[%i] : memref<9xf32>
    %d = arith.mulf %c, %c : f32
    affine.store %d, %D[%i] : memref<9xf32>
  }
  return
}
