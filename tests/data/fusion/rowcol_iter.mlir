// EXPECT: any
// REFERENCE: crash
// NOTE: Row and column sums as iter_args reductions (MLIR 22.1.8 crashes on it); the inner reductions cannot be sliced, copying them whole is not profitable.
func.func @rowcol_iter(%A: memref<5x6xf32>, %rows: memref<5xf32>, %cols: memref<6xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 5 {
    %r = affine.for %j = 0 to 6 iter_args(%acc = %zero) -> (f32) {
      %a = affine.load %A[%i, %j] : memref<5x6xf32>
      %s = arith.addf %acc, %a : f32
      affine.yield %s : f32
    }
    affine.store %r, %rows[%i] : memref<5xf32>
  }
  affine.for %j = 0 to 6 {
    %c = affine.for %i = 0 to 5 iter_args(%acc = %zero) -> (f32) {
      %a = affine.load %A[%i, %j] : memref<5x6xf32>
      %s = arith.addf %acc, %a : f32
      affine.yield %s : f32
    }
    affine.store %c, %cols[%j] : memref<6xf32>
  }
  return
}
