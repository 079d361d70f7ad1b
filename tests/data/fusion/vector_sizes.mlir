// EXPECT: not-fused
// REFERENCE: wrong
// NOTE: Shape of llvm-project issue 115849: vector accesses of different sizes; the consumer reads the whole row the producer writes in 8 pieces, then overwrites its input.
func.func @vector_sizes(%a: memref<4x32xf32>, %b: memref<4x32xf32>, %c: memref<4x32xf32>, %d: memref<4x128xf32>) {
  affine.for %j = 0 to 8 {
    %l = affine.vector_load %a[0, %j * 4] : memref<4x32xf32>, vector<4xf32>
    %r = affine.vector_load %b[0, %j * 4] : memref<4x32xf32>, vector<4xf32>
    %s = arith.addf %l, %r : vector<4xf32>
    affine.vector_store %s, %c[0, %j * 4] : memref<4x32xf32>, vector<4xf32>
  }
  affine.for %j = 0 to 4 {
    %l = affine.vector_load %c[0, 0] : memref<4x32xf32>, vector<32xf32>
    %r = affine.vector_load %d[0, %j * 32] : memref<4x128xf32>, vector<32xf32>
    %s = arith.subf %l, %r : vector<32xf32>
    affine.vector_store %s, %d[0, %j * 32] : memref<4x128xf32>, vector<32xf32>
  }
  return
}
