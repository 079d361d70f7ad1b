// EXPECT: fused
// NOTE: PolyBench 2mm: tmp = alpha*A*B; D = beta*D + tmp*C (tmp is a local buffer).
func.func @k2mm(%A: memref<4x6xf32>, %B: memref<6x5xf32>, %C: memref<5x7xf32>, %D: memref<4x7xf32>) {
  %alpha = arith.constant 0.5 : f32
  %beta = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %tmp = memref.alloc() : memref<4x5xf32>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 5 {
      affine.store %zero, %tmp[%i, %j] : memref<4x5xf32>
    }
  }
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 5 {
      affine.for %k = 0 to 6 {
        %a = affine.load %A[%i, %k] : memref<4x6xf32>
        %b = affine.load %B[%k, %j] : memref<6x5xf32>
        %ab = arith.mulf %a, %b : f32
        %t = arith.mulf %alpha, %ab : f32
        %o = affine.load %tmp[%i, %j] : memref<4x5xf32>
        %s = arith.addf %o, %t : f32
        affine.store %s, %tmp[%i, %j] : memref<4x5xf32>
      }
    }
  }
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 7 {
      %d = affine.load %D[%i, %j] : memref<4x7xf32>
      %m = arith.mulf %d, %beta : f32
      affine.store %m, %D[%i, %j] : memref<4x7xf32>
    }
  }
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 7 {
      affine.for %k = 0 to 5 {
        %t = affine.load %tmp[%i, %k] : memref<4x5xf32>
        %c = affine.load %C[%k, %j] : memref<5x7xf32>
        %p = arith.mulf %t, %c : f32
        %d = affine.load %D[%i, %j] : memref<4x7xf32>
        %s = arith.addf %d, %p : f32
        affine.store %s, %D[%i, %j] : memref<4x7xf32>
      }
    }
  }
  memref.dealloc %tmp : memref<4x5xf32>
  return
}
