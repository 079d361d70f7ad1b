// PolyBench 4.2 gemm: C := alpha*A*B + beta*C (NI=1000, NJ=1100, NK=1200: LARGE).
func.func @kernel(%alpha: f64, %beta: f64, %C: memref<1000x1100xf64>, %A: memref<1000x1200xf64>, %B: memref<1200x1100xf64>) {
  affine.for %i = 0 to 1000 {
    affine.for %j = 0 to 1100 {
      %c = affine.load %C[%i, %j] : memref<1000x1100xf64>
      %c1 = arith.mulf %c, %beta : f64
      affine.store %c1, %C[%i, %j] : memref<1000x1100xf64>
    }
    affine.for %k = 0 to 1200 {
      affine.for %j = 0 to 1100 {
        %a = affine.load %A[%i, %k] : memref<1000x1200xf64>
        %aa = arith.mulf %alpha, %a : f64
        %b = affine.load %B[%k, %j] : memref<1200x1100xf64>
        %p = arith.mulf %aa, %b : f64
        %c = affine.load %C[%i, %j] : memref<1000x1100xf64>
        %s = arith.addf %c, %p : f64
        affine.store %s, %C[%i, %j] : memref<1000x1100xf64>
      }
    }
  }
  return
}
