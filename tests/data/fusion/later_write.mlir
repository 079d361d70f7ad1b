// EXPECT: fused
// NOTE: The producer writes T[i floordiv 2] twice; the value the consumer reads comes from the later iteration 2j + 1.
func.func @later_write(%A: memref<16xf32>, %C: memref<8xf32>) {
  %T = memref.alloc() : memref<8xf32>
  affine.for %i = 0 to 16 {
    %a = affine.load %A[%i] : memref<16xf32>
    affine.store %a, %T[%i floordiv 2] : memref<8xf32>
  }
  affine.for %j = 0 to 8 {
    %t = affine.load %T[%j] : memref<8xf32>
    %s = arith.addf %t, %t : f32
    affine.store %s, %C[%j] : memref<8xf32>
  }
  return
}
