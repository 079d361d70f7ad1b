// EXPECT: any
// NOTE: PolyBench atax: tmp = A x, y = A^T tmp (the second nest needs all of tmp for each element of y).
func.func @atax(%A: memref<5x6xf32>, %x: memref<6xf32>, %y: memref<6xf32>, %tmp: memref<5xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %j = 0 to 6 {
    affine.store %zero, %y[%j] : memref<6xf32>
  }
  affine.for %i = 0 to 5 {
    affine.store %zero, %tmp[%i] : memref<5xf32>
    affine.for %j = 0 to 6 {
      %a = affine.load %A[%i, %j] : memref<5x6xf32>
      %b = affine.load %x[%j] : memref<6xf32>
      %p = arith.mulf %a, %b : f32
      %t = affine.load %tmp[%i] : memref<5xf32>
      %s = arith.addf %t, %p : f32
      affine.store %s, %tmp[%i] : memref<5xf32>
    }
  }
  affine.for %i = 0 to 5 {
    affine.for %j = 0 to 6 {
      %a = affine.load %A[%i, %j] : memref<5x6xf32>
      %t = affine.load %tmp[%i] : memref<5xf32>
      %p = arith.mulf %a, %t : f32
      %v = affine.load %y[%j] : memref<6xf32>
      %s = arith.addf %v, %p : f32
      affine.store %s, %y[%j] : memref<6xf32>
    }
  }
  return
}
