func.func @kernel(%A: memref<1000x1000xf64>) {
  %c = arith.constant 0.111 : f64
  affine.for %t = 0 to 10 {
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
        %s1 = arith.addf %a0, %a1 : f64
        %s2 = arith.addf %s1, %a2 : f64
        %s3 = arith.addf %s2, %a3 : f64
        %s4 = arith.addf %s3, %a4 : f64
        %s5 = arith.addf %s4, %a5 : f64
        %s6 = arith.addf %s5, %a6 : f64
        %s7 = arith.addf %s6, %a7 : f64
        %s8 = arith.addf %s7, %a8 : f64
        %v = arith.mulf %c, %s8 : f64
        affine.store %v, %A[%i, %j] : memref<1000x1000xf64>
      }
    }
  }
  return
}
