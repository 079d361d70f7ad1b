func.func @kernel(%A: memref<400x400xf64>, %B: memref<400x400xf64>, %C: memref<400x400xf64>) {
  %alpha = arith.constant 1.5 : f64
  affine.for %i = 0 to 400 {
    affine.for %k = 0 to 400 {
      affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
        %a1 = affine.load %A[%j, %k] : memref<400x400xf64>
        %b1 = affine.load %B[%i, %k] : memref<400x400xf64>
        %b2 = affine.load %B[%j, %k] : memref<400x400xf64>
        %a2 = affine.load %A[%i, %k] : memref<400x400xf64>
        %c = affine.load %C[%i, %j] : memref<400x400xf64>
        %p1 = arith.mulf %a1, %b1 : f64
        %p2 = arith.mulf %b2, %a2 : f64
        %p = arith.addf %p1, %p2 : f64
        %q = arith.mulf %p, %alpha : f64
        %s = arith.addf %c, %q : f64
        affine.store %s, %C[%i, %j] : memref<400x400xf64>
      }
    }
  }
  return
}
