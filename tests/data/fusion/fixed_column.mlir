// EXPECT: fused
// NOTE: Shape of llvm-project issue 219962 (a missed fusion in MLIR): the producer fills a whole local matrix, the consumer reads column 0 only; the slice is one element per row.
func.func @fixed_column(%out: memref<32xf32>) {
  %cst = arith.constant 1.0 : f32
  %alloc = memref.alloc() : memref<32x32xf32>
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      affine.store %cst, %alloc[%i, %j] : memref<32x32xf32>
    }
  }
  affine.for %i = 0 to 32 {
    %v = affine.load %alloc[%i, 0] : memref<32x32xf32>
    affine.store %v, %out[%i] : memref<32xf32>
  }
  memref.dealloc %alloc : memref<32x32xf32>
  return
}
