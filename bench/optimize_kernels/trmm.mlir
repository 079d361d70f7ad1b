func.func @kernel(%A: memref<512x512xf64>, %B: memref<512x512xf64>) {
  affine.for %i = 0 to 512 {
    affine.for %j = 0 to 512 {
      affine.for %k = affine_map<(d0) -> (d0 + 1)>(%i) to 512 {
        %a = affine.load %A[%k, %i] : memref<512x512xf64>
        %b = affine.load %B[%k, %j] : memref<512x512xf64>
        %c = affine.load %B[%i, %j] : memref<512x512xf64>
        %ab = arith.mulf %a, %b : f64
        %s = arith.addf %c, %ab : f64
        affine.store %s, %B[%i, %j] : memref<512x512xf64>
      }
    }
  }
  return
}
