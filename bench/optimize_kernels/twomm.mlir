func.func @kernel(%A: memref<400x400xf64>, %B: memref<400x400xf64>, %C: memref<400x400xf64>, %D: memref<400x400xf64>, %T: memref<400x400xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 400 {
    affine.for %j = 0 to 400 {
      affine.store %zero, %T[%i, %j] : memref<400x400xf64>
      affine.for %k = 0 to 400 {
        %a = affine.load %A[%i, %k] : memref<400x400xf64>
        %b = affine.load %B[%k, %j] : memref<400x400xf64>
        %t = affine.load %T[%i, %j] : memref<400x400xf64>
        %ab = arith.mulf %a, %b : f64
        %s = arith.addf %t, %ab : f64
        affine.store %s, %T[%i, %j] : memref<400x400xf64>
      }
    }
  }
  affine.for %i = 0 to 400 {
    affine.for %j = 0 to 400 {
      affine.for %k = 0 to 400 {
        %a = affine.load %T[%i, %k] : memref<400x400xf64>
        %b = affine.load %C[%k, %j] : memref<400x400xf64>
        %t = affine.load %D[%i, %j] : memref<400x400xf64>
        %ab = arith.mulf %a, %b : f64
        %s = arith.addf %t, %ab : f64
        affine.store %s, %D[%i, %j] : memref<400x400xf64>
      }
    }
  }
  return
}
