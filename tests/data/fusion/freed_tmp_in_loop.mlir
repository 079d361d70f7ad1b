// EXPECT: fused-inner
// NOTE: The intermediate is allocated and freed in every step of a time loop: the private buffer is allocated once at the top of the function, so it must be freed once, before the return (not in the loop).
func.func @freed_tmp_in_loop(%A: memref<8xf32>, %C: memref<8xf32>) {
  %half = arith.constant 0.5 : f32
  affine.for %t = 0 to 3 {
    %B = memref.alloc() : memref<8xf32>
    affine.for %i = 0 to 8 {
      %a = affine.load %A[%i] : memref<8xf32>
      %b = arith.mulf %a, %half : f32
      affine.store %b, %B[%i] : memref<8xf32>
    }
    affine.for %i = 0 to 8 {
      %b = affine.load %B[%i] : memref<8xf32>
      %c = affine.load %C[%i] : memref<8xf32>
      %s = arith.addf %b, %c : f32
      affine.store %s, %C[%i] : memref<8xf32>
      affine.store %s, %A[%i] : memref<8xf32>
    }
    memref.dealloc %B : memref<8xf32>
  }
  return
}
