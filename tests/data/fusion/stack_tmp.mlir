// EXPECT: fused
// NOTE: The intermediate is a memref.alloca: the private buffer is an alloca too (freed on return; mlir-opt 22.1.8 makes it a memref.alloc that is never freed).
func.func @stack_tmp(%in: memref<12xf32>, %out: memref<12xf32>) {
  %three = arith.constant 3.0 : f32
  %tmp = memref.alloca() : memref<12xf32>
  affine.for %i = 0 to 12 {
    %v = affine.load %in[%i] : memref<12xf32>
    %w = arith.mulf %v, %three : f32
    affine.store %w, %tmp[%i] : memref<12xf32>
  }
  affine.for %i = 0 to 12 {
    %t = affine.load %tmp[%i] : memref<12xf32>
    %s = arith.addf %t, %t : f32
    affine.store %s, %out[%i] : memref<12xf32>
  }
  return
}
