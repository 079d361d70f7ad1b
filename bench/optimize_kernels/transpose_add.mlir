func.func @kernel(%A: memref<2048x2048xf64>, %B: memref<2048x2048xf64>) {
  affine.for %i = 0 to 2048 {
    affine.for %j = 0 to 2048 {
      %a = affine.load %A[%j, %i] : memref<2048x2048xf64>
      %b = affine.load %B[%i, %j] : memref<2048x2048xf64>
      %s = arith.addf %a, %b : f64
      affine.store %s, %B[%i, %j] : memref<2048x2048xf64>
    }
  }
  return
}
