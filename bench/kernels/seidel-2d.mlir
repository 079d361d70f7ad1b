// PolyBench 4.2 seidel-2d: 9-point Gauss-Seidel stencil in place, in PolyBench's loop order.
// TSTEPS=40, N=1000.
func.func @kernel(%A: memref<1000x1000xf64>) {
  %nine = arith.constant 9.0 : f64
  affine.for %t = 0 to 40 {
    affine.for %i = 1 to 999 {
      affine.for %j = 1 to 999 {
        %a0 = affine.load %A[%i - 1, %j - 1] : memref<1000x1000xf64>
        %a1 = affine.load %A[%i - 1, %j] : memref<1000x1000xf64>
        %a2 = affine.load %A[%i - 1, %j + 1] : memref<1000x1000xf64>
        %a3 = affine.load %A[%i, %j - 1] : memref<1000x1000xf64>
        %a4 = affine.load %A[%i, %j] : memref<1000x1000xf64>
        %a5 = affine.load %A[%i, %j + 1] : memref<1000x1000xf64>
        %a6 = affine.load %A[%i + 1, %j - 1] : memref<1000x1000xf64>
        %a7 = affine.load %A[%i + 1, %j] : memref<1000x1000xf64>
        %a8 = affine.load %A[%i + 1, %j + 1] : memref<1000x1000xf64>
        %s0 = arith.addf %a0, %a1 : f64
        %s1 = arith.addf %s0, %a2 : f64
        %s2 = arith.addf %s1, %a3 : f64
        %s3 = arith.addf %s2, %a4 : f64
        %s4 = arith.addf %s3, %a5 : f64
        %s5 = arith.addf %s4, %a6 : f64
        %s6 = arith.addf %s5, %a7 : f64
        %s7 = arith.addf %s6, %a8 : f64
        %v = arith.divf %s7, %nine : f64
        affine.store %v, %A[%i, %j] : memref<1000x1000xf64>
      }
    }
  }
  return
}
