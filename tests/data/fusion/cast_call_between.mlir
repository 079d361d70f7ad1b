// EXPECT: not-fused
// REFERENCE: wrong
// KERNEL: @cast_call_between
// NOTE: Shape of llvm-project issue 211599: between the nests, the intermediate escapes to a call through a memref.cast alias.
func.func @cast_call_between(%in: memref<32xf32>, %comm: memref<32xf32>, %out: memref<32xf32>) {
  affine.for %i = 0 to 16 {
    %a = affine.load %in[%i] : memref<32xf32>
    %b = arith.addf %a, %a : f32
    affine.store %b, %comm[%i] : memref<32xf32>
  }
  %view = memref.cast %comm : memref<32xf32> to memref<?xf32>
  func.call @escape(%view) : (memref<?xf32>) -> ()
  affine.for %j = 0 to 16 {
    %c = affine.load %comm[%j] : memref<32xf32>
    %d = arith.addf %c, %c : f32
    affine.store %d, %out[%j] : memref<32xf32>
  }
  return
}
func.func @escape(%m: memref<?xf32>) {
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %m[%c3] : memref<?xf32>
  return
}
