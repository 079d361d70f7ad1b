// EXPECT: not-fused
// REFERENCE: wrong
// NOTE: Counterexample: the consumer also reads the intermediate through a memref.cast alias (in reverse); fusing on T alone would read elements not yet computed.
func.func @no_alias(%A: memref<8xf32>, %C: memref<8xf32>) {
  %T = memref.alloc() : memref<8xf32>
  %V = memref.cast %T : memref<8xf32> to memref<8xf32>
  affine.for %i = 0 to 8 {
    %a = affine.load %A[%i] : memref<8xf32>
    %d = arith.addf %a, %a : f32
    affine.store %d, %T[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    %t = affine.load %T[%i] : memref<8xf32>
    %v = affine.load %V[7 - %i] : memref<8xf32>
    %s = arith.addf %t, %v : f32
    affine.store %s, %C[%i] : memref<8xf32>
  }
  return
}
