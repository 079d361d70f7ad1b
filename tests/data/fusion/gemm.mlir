// EXPECT: fused
// NOTE: PolyBench gemm: C = beta*C then C += alpha*A*B; fusable at depth 1 only (the k loop re-reads C).
func.func @gemm(%C: memref<6x7xf32>, %A: memref<6x5xf32>, %B: memref<5x7xf32>) {
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.25 : f32
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 7 {
      %c = affine.load %C[%i, %j] : memref<6x7xf32>
      %m = arith.mulf %c, %beta : f32
      affine.store %m, %C[%i, %j] : memref<6x7xf32>
    }
  }
  affine.for %i = 0 to 6 {
    affine.for %k = 0 to 5 {
      affine.for %j = 0 to 7 {
        %a = affine.load %A[%i, %k] : memref<6x5xf32>
        %b = affine.load %B[%k, %j] : memref<5x7xf32>
        %ab = arith.mulf %a, %b : f32
        %t = arith.mulf %alpha, %ab : f32
        %c = affine.load %C[%i, %j] : memref<6x7xf32>
        %s = arith.addf %c, %t : f32
        affine.store %s, %C[%i, %j] : memref<6x7xf32>
      }
    }
  }
  return
}
