// PolyBench 4.2 3mm: G := (A*B)*(C*D) (E = A*B; F = C*D; G = E*F), in PolyBench's loop order.
// NI=400, NJ=450, NK=500, NL=550, NM=600 (between MEDIUM and LARGE).
func.func @kernel(%E: memref<400x450xf64>, %A: memref<400x500xf64>, %B: memref<500x450xf64>, %F: memref<450x550xf64>, %C: memref<450x600xf64>, %D: memref<600x550xf64>, %G: memref<400x550xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 400 {
    affine.for %j = 0 to 450 {
      affine.store %zero, %E[%i, %j] : memref<400x450xf64>
      affine.for %k = 0 to 500 {
        %a = affine.load %A[%i, %k] : memref<400x500xf64>
        %b = affine.load %B[%k, %j] : memref<500x450xf64>
        %p = arith.mulf %a, %b : f64
        %e = affine.load %E[%i, %j] : memref<400x450xf64>
        %s = arith.addf %e, %p : f64
        affine.store %s, %E[%i, %j] : memref<400x450xf64>
      }
    }
  }
  affine.for %i = 0 to 450 {
    affine.for %j = 0 to 550 {
      affine.store %zero, %F[%i, %j] : memref<450x550xf64>
      affine.for %k = 0 to 600 {
        %c = affine.load %C[%i, %k] : memref<450x600xf64>
        %d = affine.load %D[%k, %j] : memref<600x550xf64>
        %p = arith.mulf %c, %d : f64
        %f = affine.load %F[%i, %j] : memref<450x550xf64>
        %s = arith.addf %f, %p : f64
        affine.store %s, %F[%i, %j] : memref<450x550xf64>
      }
    }
  }
  affine.for %i = 0 to 400 {
    affine.for %j = 0 to 550 {
      affine.store %zero, %G[%i, %j] : memref<400x550xf64>
      affine.for %k = 0 to 450 {
        %e = affine.load %E[%i, %k] : memref<400x450xf64>
        %f = affine.load %F[%k, %j] : memref<450x550xf64>
        %p = arith.mulf %e, %f : f64
        %g = affine.load %G[%i, %j] : memref<400x550xf64>
        %s = arith.addf %g, %p : f64
        affine.store %s, %G[%i, %j] : memref<400x550xf64>
      }
    }
  }
  return
}
