// EXPECT: fused
// MODE: producer maximal
// NOTE: 2-d producer then 4-neighbour stencil, the producer's output is an argument (live out).
func.func @stencil2d(%A: memref<6x6xf32>, %T: memref<6x6xf32>, %B: memref<6x6xf32>) {
  %k = arith.constant 0.25 : f32
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 6 {
      %a = affine.load %A[%i, %j] : memref<6x6xf32>
      %s = arith.mulf %a, %k : f32
      affine.store %s, %T[%i, %j] : memref<6x6xf32>
    }
  }
  affine.for %i = 1 to 5 {
    affine.for %j = 1 to 5 {
      %n = affine.load %T[%i - 1, %j] : memref<6x6xf32>
      %s = affine.load %T[%i + 1, %j] : memref<6x6xf32>
      %w = affine.load %T[%i, %j - 1] : memref<6x6xf32>
      %e = affine.load %T[%i, %j + 1] : memref<6x6xf32>
      %s1 = arith.addf %n, %s : f32
      %s2 = arith.addf %s1, %w : f32
      %s3 = arith.addf %s2, %e : f32
      affine.store %s3, %B[%i, %j] : memref<6x6xf32>
    }
  }
  return
}
