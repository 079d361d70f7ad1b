// PolyBench 4.2 atax: y := A'*(A*x), in PolyBench's loop order. M=6000, N=6400 (between LARGE and EXTRALARGE).
func.func @kernel(%A: memref<6000x6400xf64>, %x: memref<6400xf64>, %y: memref<6400xf64>, %tmp: memref<6000xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 6400 {
    affine.store %zero, %y[%i] : memref<6400xf64>
  }
  affine.for %i = 0 to 6000 {
    affine.store %zero, %tmp[%i] : memref<6000xf64>
    affine.for %j = 0 to 6400 {
      %t = affine.load %tmp[%i] : memref<6000xf64>
      %a = affine.load %A[%i, %j] : memref<6000x6400xf64>
      %xj = affine.load %x[%j] : memref<6400xf64>
      %p = arith.mulf %a, %xj : f64
      %s = arith.addf %t, %p : f64
      affine.store %s, %tmp[%i] : memref<6000xf64>
    }
    affine.for %j = 0 to 6400 {
      %yj = affine.load %y[%j] : memref<6400xf64>
      %a = affine.load %A[%i, %j] : memref<6000x6400xf64>
      %t = affine.load %tmp[%i] : memref<6000xf64>
      %p = arith.mulf %a, %t : f64
      %s = arith.addf %yj, %p : f64
      affine.store %s, %y[%j] : memref<6400xf64>
    }
  }
  return
}
