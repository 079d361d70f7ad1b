// PolyBench 4.2 bicg: s := A'*r; q := A*p, in PolyBench's loop order. M=4400, N=4800.
func.func @kernel(%A: memref<4800x4400xf64>, %s: memref<4400xf64>, %q: memref<4800xf64>, %p: memref<4400xf64>, %r: memref<4800xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 4400 {
    affine.store %zero, %s[%i] : memref<4400xf64>
  }
  affine.for %i = 0 to 4800 {
    affine.store %zero, %q[%i] : memref<4800xf64>
    affine.for %j = 0 to 4400 {
      %sj = affine.load %s[%j] : memref<4400xf64>
      %ri = affine.load %r[%i] : memref<4800xf64>
      %a = affine.load %A[%i, %j] : memref<4800x4400xf64>
      %m = arith.mulf %ri, %a : f64
      %ns = arith.addf %sj, %m : f64
      affine.store %ns, %s[%j] : memref<4400xf64>
      %qi = affine.load %q[%i] : memref<4800xf64>
      %pj = affine.load %p[%j] : memref<4400xf64>
      %n = arith.mulf %a, %pj : f64
      %nq = arith.addf %qi, %n : f64
      affine.store %nq, %q[%i] : memref<4800xf64>
    }
  }
  return
}
