func.func @kernel(%A: memref<2000x2000xf64>, %s: memref<2000xf64>, %q: memref<2000xf64>, %p: memref<2000xf64>, %r: memref<2000xf64>) {
  affine.for %i = 0 to 2000 {
    affine.for %j = 0 to 2000 {
      %sj = affine.load %s[%j] : memref<2000xf64>
      %ri = affine.load %r[%i] : memref<2000xf64>
      %a = affine.load %A[%i, %j] : memref<2000x2000xf64>
      %m = arith.mulf %ri, %a : f64
      %n = arith.addf %sj, %m : f64
      affine.store %n, %s[%j] : memref<2000xf64>
      %qi = affine.load %q[%i] : memref<2000xf64>
      %pj = affine.load %p[%j] : memref<2000xf64>
      %m2 = arith.mulf %a, %pj : f64
      %n2 = arith.addf %qi, %m2 : f64
      affine.store %n2, %q[%i] : memref<2000xf64>
    }
  }
  return
}
