func.func @kernel(%A: memref<1000x1000xf64>, %B: memref<1000x1000xf64>) {
  %c = arith.constant 0.2 : f64
  affine.for %t = 0 to 20 {
    affine.for %i = 1 to 999 {
      affine.for %j = 1 to 999 {
        %a0 = affine.load %A[%i, %j] : memref<1000x1000xf64>
        %a1 = affine.load %A[%i, %j - 1] : memref<1000x1000xf64>
        %a2 = affine.load %A[%i, %j + 1] : memref<1000x1000xf64>
        %a3 = affine.load %A[%i + 1, %j] : memref<1000x1000xf64>
        %a4 = affine.load %A[%i - 1, %j] : memref<1000x1000xf64>
        %s1 = arith.addf %a0, %a1 : f64
        %s2 = arith.addf %s1, %a2 : f64
        %s3 = arith.addf %s2, %a3 : f64
        %s4 = arith.addf %s3, %a4 : f64
        %v = arith.mulf %c, %s4 : f64
        affine.store %v, %B[%i, %j] : memref<1000x1000xf64>
      }
    }
    affine.for %i = 1 to 999 {
      affine.for %j = 1 to 999 {
        %a0 = affine.load %B[%i, %j] : memref<1000x1000xf64>
        %a1 = affine.load %B[%i, %j - 1] : memref<1000x1000xf64>
        %a2 = affine.load %B[%i, %j + 1] : memref<1000x1000xf64>
        %a3 = affine.load %B[%i + 1, %j] : memref<1000x1000xf64>
        %a4 = affine.load %B[%i - 1, %j] : memref<1000x1000xf64>
        %s1 = arith.addf %a0, %a1 : f64
        %s2 = arith.addf %s1, %a2 : f64
        %s3 = arith.addf %s2, %a3 : f64
        %s4 = arith.addf %s3, %a4 : f64
        %v = arith.mulf %c, %s4 : f64
        affine.store %v, %A[%i, %j] : memref<1000x1000xf64>
      }
    }
  }
  return
}
