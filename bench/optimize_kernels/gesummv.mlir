func.func @kernel(%A: memref<2000x2000xf64>, %B: memref<2000x2000xf64>, %x: memref<2000xf64>, %y: memref<2000xf64>, %tmp: memref<2000xf64>) {
  affine.for %i = 0 to 2000 {
    affine.for %j = 0 to 2000 {
      %a = affine.load %A[%i, %j] : memref<2000x2000xf64>
      %b = affine.load %B[%i, %j] : memref<2000x2000xf64>
      %xv = affine.load %x[%j] : memref<2000xf64>
      %t = affine.load %tmp[%i] : memref<2000xf64>
      %yv = affine.load %y[%i] : memref<2000xf64>
      %m1 = arith.mulf %a, %xv : f64
      %m2 = arith.mulf %b, %xv : f64
      %t2 = arith.addf %t, %m1 : f64
      %y2 = arith.addf %yv, %m2 : f64
      affine.store %t2, %tmp[%i] : memref<2000xf64>
      affine.store %y2, %y[%i] : memref<2000xf64>
    }
  }
  return
}
