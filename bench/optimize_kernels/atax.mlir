func.func @kernel(%A: memref<2000x2000xf64>, %x: memref<2000xf64>, %y: memref<2000xf64>, %tmp: memref<2000xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 2000 {
    affine.store %zero, %y[%i] : memref<2000xf64>
  }
  affine.for %i = 0 to 2000 {
    affine.store %zero, %tmp[%i] : memref<2000xf64>
    affine.for %j = 0 to 2000 {
      %t = affine.load %tmp[%i] : memref<2000xf64>
      %a = affine.load %A[%i, %j] : memref<2000x2000xf64>
      %xv = affine.load %x[%j] : memref<2000xf64>
      %m = arith.mulf %a, %xv : f64
      %s = arith.addf %t, %m : f64
      affine.store %s, %tmp[%i] : memref<2000xf64>
    }
    affine.for %j = 0 to 2000 {
      %yv = affine.load %y[%j] : memref<2000xf64>
      %a = affine.load %A[%i, %j] : memref<2000x2000xf64>
      %t = affine.load %tmp[%i] : memref<2000xf64>
      %m = arith.mulf %a, %t : f64
      %s = arith.addf %yv, %m : f64
      affine.store %s, %y[%j] : memref<2000xf64>
    }
  }
  return
}
