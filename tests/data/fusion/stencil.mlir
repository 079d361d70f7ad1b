// EXPECT: fused
// MODE: producer maximal
// NOTE: A producer followed by a 3-point stencil on its output (a slice of 3 producer iterations per consumer iteration).
func.func @stencil(%A: memref<12xf32>, %B: memref<12xf32>) {
  %T = memref.alloc() : memref<12xf32>
  affine.for %i = 0 to 12 {
    %a = affine.load %A[%i] : memref<12xf32>
    %s = arith.mulf %a, %a : f32
    affine.store %s, %T[%i] : memref<12xf32>
  }
  affine.for %i = 1 to 11 {
    %l = affine.load %T[%i - 1] : memref<12xf32>
    %c = affine.load %T[%i] : memref<12xf32>
    %r = affine.load %T[%i + 1] : memref<12xf32>
    %s1 = arith.addf %l, %c : f32
    %s2 = arith.addf %s1, %r : f32
    affine.store %s2, %B[%i] : memref<12xf32>
  }
  return
}
