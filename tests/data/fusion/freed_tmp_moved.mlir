// EXPECT: fused
// NOTE: A freed intermediate whose fused nest moves up before a nest that overwrites the producer's input: the private buffer is still freed once, where the original was.
func.func @freed_tmp_moved(%in: memref<8xf32>, %out: memref<8xf32>) {
  %z = arith.constant 0.0 : f32
  %tmp = memref.alloc() : memref<8xf32>
  affine.for %i = 0 to 8 {
    %v = affine.load %in[%i] : memref<8xf32>
    affine.store %v, %tmp[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    affine.store %z, %in[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    %v = affine.load %tmp[%i] : memref<8xf32>
    affine.store %v, %out[%i] : memref<8xf32>
  }
  memref.dealloc %tmp : memref<8xf32>
  return
}
