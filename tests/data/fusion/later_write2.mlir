// EXPECT: any
// NOTE: Iteration i writes T[i] then T[i + 1]; T[j] is written by iterations j - 1 and j, the consumer must see the value of iteration j.
func.func @later_write2(%A: memref<9xf32>, %C: memref<8xf32>) {
  %two = arith.constant 2.0 : f32
  %T = memref.alloc() : memref<9xf32>
  affine.for %i = 0 to 8 {
    %a = affine.load %A[%i] : memref<9xf32>
    affine.store %a, %T[%i] : memref<9xf32>
    %b = affine.load %A[%i + 1] : memref<9xf32>
    %c = arith.mulf %b, %two : f32
    affine.store %c, %T[%i + 1] : memref<9xf32>
  }
  affine.for %j = 0 to 8 {
    %t = affine.load %T[%j] : memref<9xf32>
    affine.store %t, %C[%j] : memref<8xf32>
  }
  return
}
