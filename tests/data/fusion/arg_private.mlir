// EXPECT: any
// NOTE: The producer writes a function argument the consumer reads in part: the producer is kept and the fused nest recomputes its slice in a private buffer, which must be freed (nothing was allocated before).
func.func @arg_private(%in: memref<10xf32>, %tmp: memref<10xf32>, %out: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    %v = affine.load %in[%i] : memref<10xf32>
    %w = arith.addf %v, %v : f32
    affine.store %w, %tmp[%i] : memref<10xf32>
  }
  affine.for %i = 0 to 5 {
    %v = affine.load %tmp[%i] : memref<10xf32>
    %w = arith.mulf %v, %v : f32
    affine.store %w, %out[%i] : memref<10xf32>
  }
  return
}
