// PolyBench 4.2 2mm: D := alpha*A*B*C + beta*D (tmp = alpha*A*B; D = beta*D + tmp*C),
// in PolyBench's loop order. NI=400, NJ=450, NK=500, NL=550 (between MEDIUM and LARGE).
func.func @kernel(%alpha: f64, %beta: f64, %tmp: memref<400x450xf64>, %A: memref<400x500xf64>, %B: memref<500x450xf64>, %C: memref<450x550xf64>, %D: memref<400x550xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 400 {
    affine.for %j = 0 to 450 {
      affine.store %zero, %tmp[%i, %j] : memref<400x450xf64>
      affine.for %k = 0 to 500 {
        %a = affine.load %A[%i, %k] : memref<400x500xf64>
        %aa = arith.mulf %alpha, %a : f64
        %b = affine.load %B[%k, %j] : memref<500x450xf64>
        %p = arith.mulf %aa, %b : f64
        %t = affine.load %tmp[%i, %j] : memref<400x450xf64>
        %s = arith.addf %t, %p : f64
        affine.store %s, %tmp[%i, %j] : memref<400x450xf64>
      }
    }
  }
  affine.for %i = 0 to 400 {
    affine.for %j = 0 to 550 {
      %d = affine.load %D[%i, %j] : memref<400x550xf64>
      %d1 = arith.mulf %d, %beta : f64
      affine.store %d1, %D[%i, %j] : memref<400x550xf64>
      affine.for %k = 0 to 450 {
        %t = affine.load %tmp[%i, %k] : memref<400x450xf64>
        %c = affine.load %C[%k, %j] : memref<450x550xf64>
        %p = arith.mulf %t, %c : f64
        %d2 = affine.load %D[%i, %j] : memref<400x550xf64>
        %s = arith.addf %d2, %p : f64
        affine.store %s, %D[%i, %j] : memref<400x550xf64>
      }
    }
  }
  return
}
