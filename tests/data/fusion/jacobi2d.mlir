// EXPECT: any
// NOTE: PolyBench jacobi-2d: 5-point stencils A -> B -> A inside a time loop.
func.func @jacobi2d(%A: memref<7x7xf32>, %B: memref<7x7xf32>) {
  %fifth = arith.constant 0.125 : f32
  affine.for %t = 0 to 2 {
    affine.for %i = 1 to 6 {
      affine.for %j = 1 to 6 {
        %c = affine.load %A[%i, %j] : memref<7x7xf32>
        %w = affine.load %A[%i, %j - 1] : memref<7x7xf32>
        %e = affine.load %A[%i, %j + 1] : memref<7x7xf32>
        %n = affine.load %A[%i - 1, %j] : memref<7x7xf32>
        %s = affine.load %A[%i + 1, %j] : memref<7x7xf32>
        %s1 = arith.addf %c, %w : f32
        %s2 = arith.addf %s1, %e : f32
        %s3 = arith.addf %s2, %n : f32
        %s4 = arith.addf %s3, %s : f32
        %r = arith.mulf %s4, %fifth : f32
        affine.store %r, %B[%i, %j] : memref<7x7xf32>
      }
    }
    affine.for %i = 1 to 6 {
      affine.for %j = 1 to 6 {
        %c = affine.load %B[%i, %j] : memref<7x7xf32>
        %w = affine.load %B[%i, %j - 1] : memref<7x7xf32>
        %e = affine.load %B[%i, %j + 1] : memref<7x7xf32>
        %n = affine.load %B[%i - 1, %j] : memref<7x7xf32>
        %s = affine.load %B[%i + 1, %j] : memref<7x7xf32>
        %s1 = arith.addf %c, %w : f32
        %s2 = arith.addf %s1, %e : f32
        %s3 = arith.addf %s2, %n : f32
        %s4 = arith.addf %s3, %s : f32
        %r = arith.mulf %s4, %fifth : f32
        affine.store %r, %A[%i, %j] : memref<7x7xf32>
      }
    }
  }
  return
}
