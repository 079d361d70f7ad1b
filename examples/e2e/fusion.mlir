// Example workspace of the real-editor test (tests/test_vscode_e2e.py).
// @fuse: a producer-consumer pair of loop nests over a temporary buffer (fusable);
// @carried: a load with a loop-carried dependence of distance 2;
// @offset: a #map alias used by an affine.apply;
// @broken: a deliberate error (a use of an undefined value).
#shift = affine_map<(d0)[s0] -> (d0 + s0)>

func.func @fuse(%in: memref<64xf32>, %out: memref<64xf32>) {
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
  affine.for %k = 2 to 100 {
    %x = affine.load %a[%k - 2] : memref<100xf32>
    %y = arith.addf %x, %one : f32
    affine.store %y, %a[%k] : memref<100xf32>
  }
  return
}

func.func @offset(%n: index) -> index {
  %c4 = arith.constant 4 : index
  %r = affine.apply #shift(%n)[%c4]
  return %r : index
}

func.func @broken(%b: memref<8xf32>) {
  affine.for %m = 0 to 8 {
    %z = affine.load %b[%m] : memref<8xf32>
    affine.store %undefined, %b[%m] : memref<8xf32>
  }
  return
}
