// EXPECT: not-fused
// REFERENCE: wrong
// NOTE: Shape of llvm-project issue 212032: every producer iteration reads a[1]; the consumer writes a[p] (after the producer in the original).
func.func @war_const_read(%a: memref<3xf32>, %c: memref<3xf32>, %out: memref<3xf32>) {
  %scratch = memref.alloc() : memref<3xf32>
  affine.for %p = 1 to 3 {
    %av = affine.load %a[1] : memref<3xf32>
    %cv = affine.load %c[%p] : memref<3xf32>
    %v = arith.addf %av, %cv : f32
    affine.store %v, %scratch[%p] : memref<3xf32>
  }
  affine.for %p = 1 to 3 {
    %v = affine.load %scratch[%p] : memref<3xf32>
    affine.store %v, %a[%p] : memref<3xf32>
    affine.store %v, %out[%p] : memref<3xf32>
  }
  return
}
