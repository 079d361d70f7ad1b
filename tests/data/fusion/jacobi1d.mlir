// EXPECT: any
// NOTE: PolyBench jacobi-1d: two stencil sweeps inside a time loop (fusion inside the loop body).
func.func @jacobi1d(%A: memref<10xf32>, %B: memref<10xf32>) {
  %third = arith.constant 0.25 : f32
  affine.for %t = 0 to 3 {
    affine.for %i = 1 to 9 {
      %a = affine.load %A[%i - 1] : memref<10xf32>
      %b = affine.load %A[%i] : memref<10xf32>
      %c = affine.load %A[%i + 1] : memref<10xf32>
      %s = arith.addf %a, %b : f32
      %s2 = arith.addf %s, %c : f32
      %r = arith.mulf %s2, %third : f32
      affine.store %r, %B[%i] : memref<10xf32>
    }
    affine.for %i = 1 to 9 {
      %a = affine.load %B[%i - 1] : memref<10xf32>
      %b = affine.load %B[%i] : memref<10xf32>
      %c = affine.load %B[%i + 1] : memref<10xf32>
      %s = arith.addf %a, %b : f32
      %s2 = arith.addf %s, %c : f32
      %r = arith.mulf %s2, %third : f32
      affine.store %r, %A[%i] : memref<10xf32>
    }
  }
  return
}
