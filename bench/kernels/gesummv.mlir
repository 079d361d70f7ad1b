// PolyBench 4.2 gesummv: y := alpha*A*x + beta*B*x, in PolyBench's loop order. N=4000 (EXTRALARGE).
func.func @kernel(%alpha: f64, %beta: f64, %A: memref<4000x4000xf64>, %B: memref<4000x4000xf64>, %tmp: memref<4000xf64>, %x: memref<4000xf64>, %y: memref<4000xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 4000 {
    affine.store %zero, %tmp[%i] : memref<4000xf64>
    affine.store %zero, %y[%i] : memref<4000xf64>
    affine.for %j = 0 to 4000 {
      %a = affine.load %A[%i, %j] : memref<4000x4000xf64>
      %xj = affine.load %x[%j] : memref<4000xf64>
      %p = arith.mulf %a, %xj : f64
      %t = affine.load %tmp[%i] : memref<4000xf64>
      %s = arith.addf %p, %t : f64
      affine.store %s, %tmp[%i] : memref<4000xf64>
      %b = affine.load %B[%i, %j] : memref<4000x4000xf64>
      %q = arith.mulf %b, %xj : f64
      %yi = affine.load %y[%i] : memref<4000xf64>
      %u = arith.addf %q, %yi : f64
      affine.store %u, %y[%i] : memref<4000xf64>
    }
    %t = affine.load %tmp[%i] : memref<4000xf64>
    %at = arith.mulf %alpha, %t : f64
    %yi = affine.load %y[%i] : memref<4000xf64>
    %by = arith.mulf %beta, %yi : f64
    %r = arith.addf %at, %by : f64
    affine.store %r, %y[%i] : memref<4000xf64>
  }
  return
}
