// EXPECT: fused
// NOTE: A chain of three nests through two freed intermediates, the deallocs in the reverse order of the allocs: every private buffer is freed exactly once, and the dealloc of the first does not block the second fusion.
func.func @freed_two_tmps(%in: memref<16xf32>, %out: memref<16xf32>) {
  %one = arith.constant 1.0 : f32
  %t1 = memref.alloc() : memref<16xf32>
  %t2 = memref.alloc() : memref<16xf32>
  affine.for %i = 0 to 16 {
    %v = affine.load %in[%i] : memref<16xf32>
    %w = arith.addf %v, %one : f32
    affine.store %w, %t1[%i] : memref<16xf32>
  }
  affine.for %i = 0 to 16 {
    %v = affine.load %t1[%i] : memref<16xf32>
    %w = arith.mulf %v, %v : f32
    affine.store %w, %t2[%i] : memref<16xf32>
  }
  affine.for %i = 0 to 16 {
    %v = affine.load %t2[%i] : memref<16xf32>
    %x = affine.load %in[%i] : memref<16xf32>
    %w = arith.subf %v, %x : f32
    affine.store %w, %out[%i] : memref<16xf32>
  }
  memref.dealloc %t2 : memref<16xf32>
  memref.dealloc %t1 : memref<16xf32>
  return
}
