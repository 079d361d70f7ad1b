// A producer-consumer pair of loop nests (a candidate for "Fuse loops here")
// and a loop-carried dependence (a[i] = a[i-2] + 1). examples/mistakes.mlir
// has a few mistakes.

func.func @producer_consumer(%in: memref<64xf32>, %out: memref<64xf32>) {
  %tmp = memref.alloc() : memref<64xf32>
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 64 {
    %v = affine.load %in[%i] : memref<64xf32>
    %d = arith.mulf %v, %two : f32
    affine.store %d, %tmp[%i] : memref<64xf32>
  }
  affine.for %j = 0 to 64 {
    %t = affine.load %tmp[%j] : memref<64xf32>
    affine.store %t, %out[%j] : memref<64xf32>
  }
  memref.dealloc %tmp : memref<64xf32>
  return
}

func.func @carried(%a: memref<100xf32>) {
  %one = arith.constant 1.0 : f32
  affine.for %i = 2 to 100 {
    %x = affine.load %a[%i - 2] : memref<100xf32>
    %y = arith.addf %x, %one : f32
    affine.store %y, %a[%i] : memref<100xf32>
  }
  return
}
