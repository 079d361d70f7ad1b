// EXPECT: fused
// MODE: producer maximal
// SIZES: %A=11 %B=11 %N=11
// NOTE: Symbolic bounds and dynamic memrefs (no cost model without constant trip counts: fused in maximal mode); the intermediate shrinks to a static 2-element buffer.
func.func @symbolic(%A: memref<?xf32>, %B: memref<?xf32>, %N: index) {
  %T = memref.alloc(%N) : memref<?xf32>
  affine.for %i = 0 to %N {
    %a = affine.load %A[%i] : memref<?xf32>
    %d = arith.addf %a, %a : f32
    affine.store %d, %T[%i] : memref<?xf32>
  }
  affine.for %i = 1 to %N {
    %t = affine.load %T[%i - 1] : memref<?xf32>
    %u = affine.load %T[%i] : memref<?xf32>
    %s = arith.addf %t, %u : f32
    affine.store %s, %B[%i] : memref<?xf32>
  }
  return
}
