// EXPECT: not-fused
// REFERENCE: crash
// KERNEL: @call_in_producer
// NOTE: Shape of llvm-project issue 211591: the producer passes the intermediate to a call (which changes it) in every iteration; a nest with a call is never fused.
func.func @call_in_producer(%in: memref<32xf32>, %comm: memref<32xf32>, %out: memref<32xf32>) {
  affine.for %i = 0 to 16 {
    %a = affine.load %in[%i] : memref<32xf32>
    %b = arith.addf %a, %a : f32
    affine.store %b, %comm[%i] : memref<32xf32>
    func.call @opaque(%comm) : (memref<32xf32>) -> ()
  }
  affine.for %j = 0 to 16 {
    %c = affine.load %comm[%j] : memref<32xf32>
    %d = arith.addf %c, %c : f32
    affine.store %d, %out[%j] : memref<32xf32>
  }
  return
}
func.func @opaque(%m: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0] : memref<32xf32>
  %w = arith.addf %v, %v : f32
  memref.store %w, %m[%c0] : memref<32xf32>
  return
}
