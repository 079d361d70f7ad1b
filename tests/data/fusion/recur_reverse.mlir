// EXPECT: any
// NOTE: A recurrence read in reverse order: the consumer needs the producer's last iteration first (only legal when the producer is kept).
func.func @recur_reverse(%X: memref<8xf32>, %Y: memref<8xf32>) {
  %A = memref.alloc() : memref<8xf32>
  %x0 = affine.load %X[0] : memref<8xf32>
  affine.store %x0, %A[0] : memref<8xf32>
  affine.for %i = 1 to 8 {
    %p = affine.load %A[%i - 1] : memref<8xf32>
    %x = affine.load %X[%i] : memref<8xf32>
    %s = arith.addf %p, %x : f32
    affine.store %s, %A[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    %a = affine.load %A[7 - %i] : memref<8xf32>
    affine.store %a, %Y[%i] : memref<8xf32>
  }
  return
}
