func.func @kernel(%A: memref<512x512xf64>, %B: memref<512x512xf64>, %C: memref<512x512xf64>) {
  affine.for %i = 0 to 512 {
    affine.for %j = 0 to 512 {
      affine.for %k = 0 to 512 {
        %a = affine.load %A[%i, %k] : memref<512x512xf64>
        %b = affine.load %B[%k, %j] : memref<512x512xf64>
        %c = affine.load %C[%i, %j] : memref<512x512xf64>
        %ab = arith.mulf %a, %b : f64
        %s = arith.addf %c, %ab : f64
        affine.store %s, %C[%i, %j] : memref<512x512xf64>
      }
    }
  }
  return
}
