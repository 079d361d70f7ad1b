// PolyBench 4.2 jacobi-1d: 3-point stencil, two arrays, in PolyBench's loop order.
// TSTEPS=2000, N=100000 (larger than EXTRALARGE's N so that a call runs 50-500 ms).
func.func @kernel(%A: memref<100000xf64>, %B: memref<100000xf64>) {
  %c = arith.constant 0.33333 : f64
  affine.for %t = 0 to 2000 {
    affine.for %i = 1 to 99999 {
      %a0 = affine.load %A[%i - 1] : memref<100000xf64>
      %a1 = affine.load %A[%i] : memref<100000xf64>
      %a2 = affine.load %A[%i + 1] : memref<100000xf64>
      %s0 = arith.addf %a0, %a1 : f64
      %s1 = arith.addf %s0, %a2 : f64
      %v = arith.mulf %c, %s1 : f64
      affine.store %v, %B[%i] : memref<100000xf64>
    }
    affine.for %i = 1 to 99999 {
      %b0 = affine.load %B[%i - 1] : memref<100000xf64>
      %b1 = affine.load %B[%i] : memref<100000xf64>
      %b2 = affine.load %B[%i + 1] : memref<100000xf64>
      %s0 = arith.addf %b0, %b1 : f64
      %s1 = arith.addf %s0, %b2 : f64
      %v = arith.mulf %c, %s1 : f64
      affine.store %v, %A[%i] : memref<100000xf64>
    }
  }
  return
}
