// EXPECT: fused
// NOTE: Row sums and column sums of one matrix (two sibling reductions over A, plus their initialisations); MLIR 22.1.8 fails on this shape.
func.func @rowcol(%A: memref<5x6xf32>, %rows: memref<5xf32>, %cols: memref<6xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 5 {
    affine.store %zero, %rows[%i] : memref<5xf32>
  }
  affine.for %j = 0 to 6 {
    affine.store %zero, %cols[%j] : memref<6xf32>
  }
  affine.for %i = 0 to 5 {
    affine.for %j = 0 to 6 {
      %a = affine.load %A[%i, %j] : memref<5x6xf32>
      %r = affine.load %rows[%i] : memref<5xf32>
      %s = arith.addf %r, %a : f32
      affine.store %s, %rows[%i] : memref<5xf32>
    }
  }
  affine.for %i = 0 to 5 {
    affine.for %j = 0 to 6 {
      %a = affine.load %A[%i, %j] : memref<5x6xf32>
      %c = affine.load %cols[%j] : memref<6xf32>
      %s = arith.addf %c, %a : f32
      affine.store %s, %cols[%j] : memref<6xf32>
    }
  }
  return
}
