// EXPECT: fused
// NOTE: PolyBench 3mm: E = A*B, F = C*D, G = E*F with zero-initialised products.
func.func @k3mm(%A: memref<4x5xf32>, %B: memref<5x3xf32>, %C: memref<3x6xf32>, %D: memref<6x4xf32>, %G: memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %E = memref.alloc() : memref<4x3xf32>
  %F = memref.alloc() : memref<3x4xf32>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 3 {
      affine.store %zero, %E[%i, %j] : memref<4x3xf32>
      affine.for %k = 0 to 5 {
        %a = affine.load %A[%i, %k] : memref<4x5xf32>
        %b = affine.load %B[%k, %j] : memref<5x3xf32>
        %p = arith.mulf %a, %b : f32
        %e = affine.load %E[%i, %j] : memref<4x3xf32>
        %s = arith.addf %e, %p : f32
        affine.store %s, %E[%i, %j] : memref<4x3xf32>
      }
    }
  }
  affine.for %i = 0 to 3 {
    affine.for %j = 0 to 4 {
      affine.store %zero, %F[%i, %j] : memref<3x4xf32>
      affine.for %k = 0 to 6 {
        %c = affine.load %C[%i, %k] : memref<3x6xf32>
        %d = affine.load %D[%k, %j] : memref<6x4xf32>
        %p = arith.mulf %c, %d : f32
        %f = affine.load %F[%i, %j] : memref<3x4xf32>
        %s = arith.addf %f, %p : f32
        affine.store %s, %F[%i, %j] : memref<3x4xf32>
      }
    }
  }
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 4 {
      affine.store %zero, %G[%i, %j] : memref<4x4xf32>
      affine.for %k = 0 to 3 {
        %e = affine.load %E[%i, %k] : memref<4x3xf32>
        %f = affine.load %F[%k, %j] : memref<3x4xf32>
        %p = arith.mulf %e, %f : f32
        %g = affine.load %G[%i, %j] : memref<4x4xf32>
        %s = arith.addf %g, %p : f32
        affine.store %s, %G[%i, %j] : memref<4x4xf32>
      }
    }
  }
  return
}
