// EXPECT: any
// NOTE: Row and column sums with the column nest traversing A column by column (j outer).
func.func @rowcol_t(%A: memref<5x6xf32>, %rows: memref<5xf32>, %cols: memref<6xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 5 {
    affine.store %zero, %rows[%i] : memref<5xf32>
    affine.for %j = 0 to 6 {
      %a = affine.load %A[%i, %j] : memref<5x6xf32>
      %r = affine.load %rows[%i] : memref<5xf32>
      %s = arith.addf %r, %a : f32
      affine.store %s, %rows[%i] : memref<5xf32>
    }
  }
  affine.for %j = 0 to 6 {
    affine.store %zero, %cols[%j] : memref<6xf32>
    affine.for %i = 0 to 5 {
      %a = affine.load %A[%i, %j] : memref<5x6xf32>
      %c = affine.load %cols[%j] : memref<6xf32>
      %s = arith.addf %c, %a : f32
      affine.store %s, %cols[%j] : memref<6xf32>
    }
  }
  return
}
