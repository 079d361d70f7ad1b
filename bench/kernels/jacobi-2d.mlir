// PolyBench 4.2 jacobi-2d: 5-point stencil, two arrays, in PolyBench's loop order.
// TSTEPS=100, N=1300 (between LARGE and EXTRALARGE).
func.func @kernel(%A: memref<1300x1300xf64>, %B: memref<1300x1300xf64>) {
  %c = arith.constant 0.2 : f64
  affine.for %t = 0 to 100 {
    affine.for %i = 1 to 1299 {
      affine.for %j = 1 to 1299 {
        %a0 = affine.load %A[%i, %j] : memref<1300x1300xf64>
        %a1 = affine.load %A[%i, %j - 1] : memref<1300x1300xf64>
        %a2 = affine.load %A[%i, %j + 1] : memref<1300x1300xf64>
        %a3 = affine.load %A[%i + 1, %j] : memref<1300x1300xf64>
        %a4 = affine.load %A[%i - 1, %j] : memref<1300x1300xf64>
        %s0 = arith.addf %a0, %a1 : f64
        %s1 = arith.addf %s0, %a2 : f64
        %s2 = arith.addf %s1, %a3 : f64
        %s3 = arith.addf %s2, %a4 : f64
        %v = arith.mulf %c, %s3 : f64
        affine.store %v, %B[%i, %j] : memref<1300x1300xf64>
      }
    }
    affine.for %i = 1 to 1299 {
      affine.for %j = 1 to 1299 {
        %b0 = affine.load %B[%i, %j] : memref<1300x1300xf64>
        %b1 = affine.load %B[%i, %j - 1] : memref<1300x1300xf64>
        %b2 = affine.load %B[%i, %j + 1] : memref<1300x1300xf64>
        %b3 = affine.load %B[%i + 1, %j] : memref<1300x1300xf64>
        %b4 = affine.load %B[%i - 1, %j] : memref<1300x1300xf64>
        %s0 = arith.addf %b0, %b1 : f64
        %s1 = arith.addf %s0, %b2 : f64
        %s2 = arith.addf %s1, %b3 : f64
        %s3 = arith.addf %s2, %b4 : f64
        %v = arith.mulf %c, %s3 : f64
        affine.store %v, %A[%i, %j] : memref<1300x1300xf64>
      }
    }
  }
  return
}
