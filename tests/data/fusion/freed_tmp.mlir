// EXPECT: fused
// NOTE: The intermediate is allocated and freed in the function (issue #14, item 8): the fused nest's private buffer must be freed where the original was, so the function still frees all it allocates.
func.func @freed_tmp(%in: memref<6x8xf32>, %out: memref<6x8xf32>) {
  %two = arith.constant 2.0 : f32
  %tmp = memref.alloc() : memref<6x8xf32>
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 8 {
      %v = affine.load %in[%i, %j] : memref<6x8xf32>
      %w = arith.mulf %v, %two : f32
      affine.store %w, %tmp[%i, %j] : memref<6x8xf32>
    }
  }
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 8 {
      %t = affine.load %tmp[%i, %j] : memref<6x8xf32>
      %x = affine.load %in[%i, %j] : memref<6x8xf32>
      %s = arith.addf %t, %x : f32
      affine.store %s, %out[%i, %j] : memref<6x8xf32>
    }
  }
  memref.dealloc %tmp : memref<6x8xf32>
  return
}
