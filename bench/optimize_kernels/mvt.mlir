func.func @kernel(%A: memref<2000x2000xf64>, %x1: memref<2000xf64>, %x2: memref<2000xf64>, %y1: memref<2000xf64>, %y2: memref<2000xf64>) {
  affine.for %i = 0 to 2000 {
    affine.for %j = 0 to 2000 {
      %a = affine.load %A[%i, %j] : memref<2000x2000xf64>
      %y = affine.load %y1[%j] : memref<2000xf64>
      %x = affine.load %x1[%i] : memref<2000xf64>
      %p = arith.mulf %a, %y : f64
      %s = arith.addf %x, %p : f64
      affine.store %s, %x1[%i] : memref<2000xf64>
    }
  }
  affine.for %i = 0 to 2000 {
    affine.for %j = 0 to 2000 {
      %a = affine.load %A[%j, %i] : memref<2000x2000xf64>
      %y = affine.load %y2[%j] : memref<2000xf64>
      %x = affine.load %x2[%i] : memref<2000xf64>
      %p = arith.mulf %a, %y : f64
      %s = arith.addf %x, %p : f64
      affine.store %s, %x2[%i] : memref<2000xf64>
    }
  }
  return
}
