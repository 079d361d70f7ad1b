// EXPECT: fused
// NOTE: PolyBench bicg: s = r A and q = A p; the two nests only share reads of A (sibling fusion).
func.func @bicg(%A: memref<5x4xf32>, %s: memref<4xf32>, %q: memref<5xf32>, %p: memref<4xf32>, %r: memref<5xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %j = 0 to 4 {
    affine.store %zero, %s[%j] : memref<4xf32>
  }
  affine.for %i = 0 to 5 {
    affine.store %zero, %q[%i] : memref<5xf32>
  }
  affine.for %i = 0 to 5 {
    affine.for %j = 0 to 4 {
      %rv = affine.load %r[%i] : memref<5xf32>
      %a = affine.load %A[%i, %j] : memref<5x4xf32>
      %m = arith.mulf %rv, %a : f32
      %sv = affine.load %s[%j] : memref<4xf32>
      %t = arith.addf %sv, %m : f32
      affine.store %t, %s[%j] : memref<4xf32>
    }
  }
  affine.for %i = 0 to 5 {
    affine.for %j = 0 to 4 {
      %a = affine.load %A[%i, %j] : memref<5x4xf32>
      %pv = affine.load %p[%j] : memref<4xf32>
      %m = arith.mulf %a, %pv : f32
      %qv = affine.load %q[%i] : memref<5xf32>
      %t = arith.addf %qv, %m : f32
      affine.store %t, %q[%i] : memref<5xf32>
    }
  }
  return
}
