func.func @kernel(%A: memref<512x512xf64>, %B: memref<512x512xf64>, %C: memref<512x512xf64>) {
  %alpha = arith.constant 1.5 : f64
  %beta = arith.constant 1.2 : f64
  affine.for %i = 0 to 512 {
    affine.for %j = 0 to 512 {
      %c = affine.load %C[%i, %j] : memref<512x512xf64>
      %cb = arith.mulf %c, %beta : f64
      affine.store %cb, %C[%i, %j] : memref<512x512xf64>
    }
    affine.for %k = 0 to 512 {
      affine.for %j = 0 to 512 {
        %a = affine.load %A[%i, %k] : memref<512x512xf64>
        %b = affine.load %B[%k, %j] : memref<512x512xf64>
        %c = affine.load %C[%i, %j] : memref<512x512xf64>
        %ab = arith.mulf %a, %b : f64
        %aab = arith.mulf %alpha, %ab : f64
        %s = arith.addf %c, %aab : f64
        affine.store %s, %C[%i, %j] : memref<512x512xf64>
      }
    }
  }
  return
}
