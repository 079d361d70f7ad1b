// EXPECT: fused
// NOTE: Reshape through floordiv/mod: B[(4i + j) floordiv 2] written from a 2-d nest, read linearly.
func.func @modfloordiv2(%A: memref<4x4xf32>, %C: memref<8xf32>) {
  %B = memref.alloc() : memref<8xf32>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 4 {
      %a = affine.load %A[%i, %j] : memref<4x4xf32>
      affine.store %a, %B[(%i * 4 + %j) floordiv 2] : memref<8xf32>
    }
  }
  affine.for %k = 0 to 8 {
    %b = affine.load %B[%k] : memref<8xf32>
    %c = arith.mulf %b, %b : f32
    affine.store %c, %C[%k] : memref<8xf32>
  }
  return
}
