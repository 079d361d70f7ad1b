// EXPECT: any
// NOTE: Shape of llvm-project issue 212041: a recurrence tmp[i] = tmp[i - 1] + in[i] read only at even points; a slice of the directly needed iterations misses the odd predecessors.
func.func @recurrence_even(%in: memref<32xf32>, %out: memref<32xf32>) {
  %tmp = memref.alloc() : memref<32xf32>
  %seed = arith.constant 29.0 : f32
  affine.store %seed, %tmp[0] : memref<32xf32>
  affine.for %i = 1 to 16 {
    %prev = affine.load %tmp[%i - 1] : memref<32xf32>
    %x = affine.load %in[%i] : memref<32xf32>
    %s = arith.addf %prev, %x : f32
    affine.store %s, %tmp[%i] : memref<32xf32>
  }
  affine.for %j = 0 to 8 {
    %v = affine.load %tmp[%j * 2] : memref<32xf32>
    affine.store %v, %out[%j] : memref<32xf32>
  }
  return
}
