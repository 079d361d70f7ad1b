// EXPECT: any
// NOTE: PolyBench seidel-2d (in place, 9 points) after a scaling nest and before a copy-out nest.
func.func @seidel2d(%A: memref<7x7xf32>, %O: memref<7x7xf32>) {
  %ninth = arith.constant 0.125 : f32
  %half = arith.constant 0.5 : f32
  affine.for %i = 0 to 7 {
    affine.for %j = 0 to 7 {
      %a = affine.load %A[%i, %j] : memref<7x7xf32>
      %h = arith.mulf %a, %half : f32
      affine.store %h, %A[%i, %j] : memref<7x7xf32>
    }
  }
  affine.for %i = 1 to 6 {
    affine.for %j = 1 to 6 {
      %a0 = affine.load %A[%i - 1, %j - 1] : memref<7x7xf32>
      %a1 = affine.load %A[%i - 1, %j] : memref<7x7xf32>
      %a2 = affine.load %A[%i - 1, %j + 1] : memref<7x7xf32>
      %a3 = affine.load %A[%i, %j - 1] : memref<7x7xf32>
      %a4 = affine.load %A[%i, %j] : memref<7x7xf32>
      %a5 = affine.load %A[%i, %j + 1] : memref<7x7xf32>
      %a6 = affine.load %A[%i + 1, %j - 1] : memref<7x7xf32>
      %a7 = affine.load %A[%i + 1, %j] : memref<7x7xf32>
      %a8 = affine.load %A[%i + 1, %j + 1] : memref<7x7xf32>
      %s1 = arith.addf %a0, %a1 : f32
      %s2 = arith.addf %s1, %a2 : f32
      %s3 = arith.addf %s2, %a3 : f32
      %s4 = arith.addf %s3, %a4 : f32
      %s5 = arith.addf %s4, %a5 : f32
      %s6 = arith.addf %s5, %a6 : f32
      %s7 = arith.addf %s6, %a7 : f32
      %s8 = arith.addf %s7, %a8 : f32
      %r = arith.mulf %s8, %ninth : f32
      affine.store %r, %A[%i, %j] : memref<7x7xf32>
    }
  }
  affine.for %i = 0 to 7 {
    affine.for %j = 0 to 7 {
      %a = affine.load %A[%i, %j] : memref<7x7xf32>
      affine.store %a, %O[%i, %j] : memref<7x7xf32>
    }
  }
  return
}
