#map = affine_map<(d0) -> (d0 + 1)>
module @kernels {
  func.func @matmul(%A: memref<16x16xf32>, %B: memref<16x16xf32>, %C: memref<16x16xf32>) {
    affine.for %i = 0 to 16 {
      affine.for %j = 0 to 16 {
        affine.for %k = 0 to 17 {
          %a = affine.load %A[%i, %k] : memref<16x16xf32>
          %b = affine.load %B[%k, %j] : memref<16x16xf32>
          %c = affine.load %C[%i, %j] : memref<16x16xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          affine.store %s, %C[%i, %j] : memref<16x16xf32>
        }
      }
    }
    return
  }

  func.func @shift(%A: memref<32xf32>) {
    affine.for %i = 0 to 32 {
      %v = affine.load %A[%i] : memref<32xf32>
      affine.store %v, %A[%i + 1] : memref<32xf32>
    }
    return
  }

  func.func @copy(%A: memref<32xf32>, %B: memref<32xf32>) {
    affine.for %i = 0 to 31 {
      %j = affine.apply #map(%i)
      %v = affine.load %A[%j] : memref<32xf32>
      affine.store %v, %B[%i] : memref<32xf32>
    }
    return
  }
}
