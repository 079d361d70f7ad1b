// early_2019.mlir modernized by hand.
func.func @dependent_loops() {
  %0 = memref.alloc() : memref<10xf32>
  %cst = arith.constant 7.000000e+00 : f32
  affine.for %i0 = 0 to 10 {
    memref.store %cst, %0[%i0] : memref<10xf32>
  }
  affine.for %i1 = 0 to 10 {
    %idx = affine.apply affine_map<(d0) -> (d0 + 1)>(%i1)
    affine.if affine_set<(d0) : (d0 - 5 >= 0)>(%i1) {
      %1 = memref.load %0[%i1] : memref<10xf32>
    }
  }
  return
}
