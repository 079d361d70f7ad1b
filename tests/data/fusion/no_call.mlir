// EXPECT: not-fused
// REFERENCE: wrong
// KERNEL: @no_call
// NOTE: Counterexample: a call between the nests reads and writes the intermediate buffer.
func.func @no_call(%A: memref<8xf32>, %C: memref<8xf32>) {
  %T = memref.alloc() : memref<8xf32>
  affine.for %i = 0 to 8 {
    %a = affine.load %A[%i] : memref<8xf32>
    affine.store %a, %T[%i] : memref<8xf32>
  }
  call @rotate(%T) : (memref<8xf32>) -> ()
  affine.for %i = 0 to 8 {
    %t = affine.load %T[%i] : memref<8xf32>
    %s = arith.addf %t, %t : f32
    affine.store %s, %C[%i] : memref<8xf32>
  }
  return
}
func.func @rotate(%m: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %a = memref.load %m[%c0] : memref<8xf32>
  %b = memref.load %m[%c7] : memref<8xf32>
  memref.store %b, %m[%c0] : memref<8xf32>
  memref.store %a, %m[%c7] : memref<8xf32>
  return
}
