// EXPECT: fused
// REFERENCE: wrong
// NOTE: Shape of llvm-project PR 196604: three initialising stores per row, then a reduction over the rows; recomputing the initialisation inside the column loop would re-zero the sums.
func.func @init3_reduce(%a: memref<2x3x4xf32>, %out: memref<2x3xf32>) {
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 2 {
    affine.store %z, %out[%i, 0] : memref<2x3xf32>
    affine.store %z, %out[%i, 1] : memref<2x3xf32>
    affine.store %z, %out[%i, 2] : memref<2x3xf32>
  }
  affine.for %i0 = 0 to 2 {
    affine.for %i1 = 0 to 3 {
      affine.for %i2 = 0 to 4 {
        %0 = affine.load %a[%i0, %i1, %i2] : memref<2x3x4xf32>
        %1 = affine.load %out[%i0, %i1] : memref<2x3xf32>
        %2 = arith.addf %0, %1 : f32
        affine.store %2, %out[%i0, %i1] : memref<2x3xf32>
      }
    }
  }
  return
}
