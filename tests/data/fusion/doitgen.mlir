// EXPECT: fused
// REFERENCE: wrong
// NOTE: doitgen: sum = A*C4 per (r, q), then A[r][q][:] = sum. The producer reads A[r][q][s] for every s, the consumer overwrites A[r][q][p]: fusing at depth 3 breaks that WAR dependence (MLIR 22.1.8 does); depth 2 is legal.
func.func @doitgen(%A: memref<3x2x4xf32>, %C4: memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %sum = memref.alloc() : memref<3x2x4xf32>
  affine.for %r = 0 to 3 {
    affine.for %q = 0 to 2 {
      affine.for %p = 0 to 4 {
        affine.store %zero, %sum[%r, %q, %p] : memref<3x2x4xf32>
        affine.for %s = 0 to 4 {
          %a = affine.load %A[%r, %q, %s] : memref<3x2x4xf32>
          %c = affine.load %C4[%s, %p] : memref<4x4xf32>
          %m = arith.mulf %a, %c : f32
          %o = affine.load %sum[%r, %q, %p] : memref<3x2x4xf32>
          %n = arith.addf %o, %m : f32
          affine.store %n, %sum[%r, %q, %p] : memref<3x2x4xf32>
        }
      }
    }
  }
  affine.for %r = 0 to 3 {
    affine.for %q = 0 to 2 {
      affine.for %p = 0 to 4 {
        %v = affine.load %sum[%r, %q, %p] : memref<3x2x4xf32>
        affine.store %v, %A[%r, %q, %p] : memref<3x2x4xf32>
      }
    }
  }
  return
}
