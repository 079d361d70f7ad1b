// PolyBench 4.2 heat-3d: 7-point stencil, two arrays, in PolyBench's loop order.
// TSTEPS=40, N=120 (LARGE).
func.func @kernel(%A: memref<120x120x120xf64>, %B: memref<120x120x120xf64>) {
  %two = arith.constant 2.0 : f64
  %eighth = arith.constant 0.125 : f64
  affine.for %t = 1 to 41 {
    affine.for %i = 1 to 119 {
      affine.for %j = 1 to 119 {
        affine.for %k = 1 to 119 {
          %c = affine.load %A[%i, %j, %k] : memref<120x120x120xf64>
          %ip = affine.load %A[%i + 1, %j, %k] : memref<120x120x120xf64>
          %im = affine.load %A[%i - 1, %j, %k] : memref<120x120x120xf64>
          %jp = affine.load %A[%i, %j + 1, %k] : memref<120x120x120xf64>
          %jm = affine.load %A[%i, %j - 1, %k] : memref<120x120x120xf64>
          %kp = affine.load %A[%i, %j, %k + 1] : memref<120x120x120xf64>
          %km = affine.load %A[%i, %j, %k - 1] : memref<120x120x120xf64>
          %c2 = arith.mulf %two, %c : f64
          %ia = arith.subf %ip, %c2 : f64
          %ib = arith.addf %ia, %im : f64
          %ic = arith.mulf %eighth, %ib : f64
          %ja = arith.subf %jp, %c2 : f64
          %jb = arith.addf %ja, %jm : f64
          %jc = arith.mulf %eighth, %jb : f64
          %ka = arith.subf %kp, %c2 : f64
          %kb = arith.addf %ka, %km : f64
          %kc = arith.mulf %eighth, %kb : f64
          %s0 = arith.addf %ic, %jc : f64
          %s1 = arith.addf %s0, %kc : f64
          %v = arith.addf %s1, %c : f64
          affine.store %v, %B[%i, %j, %k] : memref<120x120x120xf64>
        }
      }
    }
    affine.for %i = 1 to 119 {
      affine.for %j = 1 to 119 {
        affine.for %k = 1 to 119 {
          %c = affine.load %B[%i, %j, %k] : memref<120x120x120xf64>
          %ip = affine.load %B[%i + 1, %j, %k] : memref<120x120x120xf64>
          %im = affine.load %B[%i - 1, %j, %k] : memref<120x120x120xf64>
          %jp = affine.load %B[%i, %j + 1, %k] : memref<120x120x120xf64>
          %jm = affine.load %B[%i, %j - 1, %k] : memref<120x120x120xf64>
          %kp = affine.load %B[%i, %j, %k + 1] : memref<120x120x120xf64>
          %km = affine.load %B[%i, %j, %k - 1] : memref<120x120x120xf64>
          %c2 = arith.mulf %two, %c : f64
          %ia = arith.subf %ip, %c2 : f64
          %ib = arith.addf %ia, %im : f64
          %ic = arith.mulf %eighth, %ib : f64
          %ja = arith.subf %jp, %c2 : f64
          %jb = arith.addf %ja, %jm : f64
          %jc = arith.mulf %eighth, %jb : f64
          %ka = arith.subf %kp, %c2 : f64
          %kb = arith.addf %ka, %km : f64
          %kc = arith.mulf %eighth, %kb : f64
          %s0 = arith.addf %ic, %jc : f64
          %s1 = arith.addf %s0, %kc : f64
          %v = arith.addf %s1, %c : f64
          affine.store %v, %A[%i, %j, %k] : memref<120x120x120xf64>
        }
      }
    }
  }
  return
}
