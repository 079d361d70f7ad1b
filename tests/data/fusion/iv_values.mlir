// EXPECT: fused
// NOTE: The producer uses its IVs as values (index_cast): after promotion of its single-iteration loops they are rebuilt from the consumer's IV (floordiv/mod).
func.func @iv_values(%A: memref<16xf32>, %C: memref<16xf32>) {
  %T = memref.alloc() : memref<16xf32>
  affine.for %i0 = 0 to 4 {
    affine.for %i1 = 0 to 4 {
      %x = arith.index_cast %i0 : index to i32
      %y = arith.index_cast %i1 : index to i32
      %c10 = arith.constant 10 : i32
      %m = arith.muli %x, %c10 : i32
      %s = arith.addi %m, %y : i32
      %f = arith.sitofp %s : i32 to f32
      affine.store %f, %T[%i0 * 4 + %i1] : memref<16xf32>
    }
  }
  affine.for %k = 0 to 16 {
    %t = affine.load %T[%k] : memref<16xf32>
    %a = affine.load %A[%k] : memref<16xf32>
    %r = arith.addf %t, %a : f32
    affine.store %r, %C[%k] : memref<16xf32>
  }
  return
}
