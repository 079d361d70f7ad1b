// EXPECT: any
// NOTE: Producer subscripts with mod/floordiv (B[i mod 4][i floordiv 4]); the consumer reads B[a][b] and B[a][(b + 1) mod 4].
func.func @modfloordiv(%A: memref<16xf32>, %C: memref<4x4xf32>) {
  %B = memref.alloc() : memref<4x4xf32>
  affine.for %i = 0 to 16 {
    %a = affine.load %A[%i] : memref<16xf32>
    %d = arith.addf %a, %a : f32
    affine.store %d, %B[%i mod 4, %i floordiv 4] : memref<4x4xf32>
  }
  affine.for %a = 0 to 4 {
    affine.for %b = 0 to 4 {
      %x = affine.load %B[%a, %b] : memref<4x4xf32>
      %y = affine.load %B[%a, (%b + 1) mod 4] : memref<4x4xf32>
      %s = arith.addf %x, %y : f32
      affine.store %s, %C[%a, %b] : memref<4x4xf32>
    }
  }
  return
}
