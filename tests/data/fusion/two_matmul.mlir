// EXPECT: fused
// NOTE: The two-matmul example of the fusion walk-through (batched C = A*B, E = C*D), smaller sizes.
func.func @two_matmul(%arg0: memref<2x4x6xf32>, %arg1: memref<2x6x5xf32>, %arg2: memref<2x4x5xf32>, %arg3: memref<2x5x3xf32>, %arg4: memref<2x4x3xf32>) {
  affine.for %arg5 = 0 to 2 {
    affine.for %arg6 = 0 to 4 {
      affine.for %arg7 = 0 to 5 {
        affine.for %arg8 = 0 to 6 {
          %0 = affine.load %arg0[%arg5, %arg6, %arg8] : memref<2x4x6xf32>
          %1 = affine.load %arg1[%arg5, %arg8, %arg7] : memref<2x6x5xf32>
          %2 = affine.load %arg2[%arg5, %arg6, %arg7] : memref<2x4x5xf32>
          %3 = arith.mulf %0, %1 : f32
          %4 = arith.addf %2, %3 : f32
          affine.store %4, %arg2[%arg5, %arg6, %arg7] : memref<2x4x5xf32>
        }
      }
    }
  }
  affine.for %arg5 = 0 to 2 {
    affine.for %arg6 = 0 to 4 {
      affine.for %arg7 = 0 to 3 {
        affine.for %arg8 = 0 to 5 {
          %0 = affine.load %arg2[%arg5, %arg6, %arg8] : memref<2x4x5xf32>
          %1 = affine.load %arg3[%arg5, %arg8, %arg7] : memref<2x5x3xf32>
          %2 = affine.load %arg4[%arg5, %arg6, %arg7] : memref<2x4x3xf32>
          %3 = arith.mulf %0, %1 : f32
          %4 = arith.addf %2, %3 : f32
          affine.store %4, %arg4[%arg5, %arg6, %arg7] : memref<2x4x3xf32>
        }
      }
    }
  }
  return
}
