// PolyBench 4.2 gemver: A += u1*v1' + u2*v2'; x += beta*A'*y; x += z; w += alpha*A*x,
// in PolyBench's loop order. N=4000 (EXTRALARGE).
func.func @kernel(%alpha: f64, %beta: f64, %A: memref<4000x4000xf64>, %u1: memref<4000xf64>, %v1: memref<4000xf64>, %u2: memref<4000xf64>, %v2: memref<4000xf64>, %w: memref<4000xf64>, %x: memref<4000xf64>, %y: memref<4000xf64>, %z: memref<4000xf64>) {
  affine.for %i = 0 to 4000 {
    affine.for %j = 0 to 4000 {
      %a = affine.load %A[%i, %j] : memref<4000x4000xf64>
      %p1 = affine.load %u1[%i] : memref<4000xf64>
      %q1 = affine.load %v1[%j] : memref<4000xf64>
      %m1 = arith.mulf %p1, %q1 : f64
      %s1 = arith.addf %a, %m1 : f64
      %p2 = affine.load %u2[%i] : memref<4000xf64>
      %q2 = affine.load %v2[%j] : memref<4000xf64>
      %m2 = arith.mulf %p2, %q2 : f64
      %s2 = arith.addf %s1, %m2 : f64
      affine.store %s2, %A[%i, %j] : memref<4000x4000xf64>
    }
  }
  affine.for %i = 0 to 4000 {
    affine.for %j = 0 to 4000 {
      %xi = affine.load %x[%i] : memref<4000xf64>
      %a = affine.load %A[%j, %i] : memref<4000x4000xf64>
      %ba = arith.mulf %beta, %a : f64
      %yj = affine.load %y[%j] : memref<4000xf64>
      %p = arith.mulf %ba, %yj : f64
      %s = arith.addf %xi, %p : f64
      affine.store %s, %x[%i] : memref<4000xf64>
    }
  }
  affine.for %i = 0 to 4000 {
    %xi = affine.load %x[%i] : memref<4000xf64>
    %zi = affine.load %z[%i] : memref<4000xf64>
    %s = arith.addf %xi, %zi : f64
    affine.store %s, %x[%i] : memref<4000xf64>
  }
  affine.for %i = 0 to 4000 {
    affine.for %j = 0 to 4000 {
      %wi = affine.load %w[%i] : memref<4000xf64>
      %a = affine.load %A[%i, %j] : memref<4000x4000xf64>
      %aa = arith.mulf %alpha, %a : f64
      %xj = affine.load %x[%j] : memref<4000xf64>
      %p = arith.mulf %aa, %xj : f64
      %s = arith.addf %wi, %p : f64
      affine.store %s, %w[%i] : memref<4000xf64>
    }
  }
  return
}
