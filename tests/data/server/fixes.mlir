// Diagnostics that carry quick fixes.
#legacy = (d0) -> (d0 + 1)

func @legacy_func(%A: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %v = affine.load %A[%i] : memref<8xf32>
  }
  return
}

func.func @missing_max(%A: memref<8xf32>, %N: index) {
  affine.for %i = affine_map<(d0) -> (d0, 0)>(%N) to 8 {
    %v = affine.load %A[%i] : memref<8xf32>
  }
  return
}
