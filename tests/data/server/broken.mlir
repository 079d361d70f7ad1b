#map = affine_map<(d0) -> (d0 + 1)>

func.func @good_before(%A: memref<16xf32>) {
  affine.for %i = 0 to 15 {
    %v = affine.load %A[%i] : memref<16xf32>
    affine.store %v, %A[%i + 1] : memref<16xf32>
  }
  return
}

func.func @broken(%A: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    %v = affine.load %A[%i : memref<16xf32>
  }
  return
}

func.func @good_after(%B: memref<16xf32>) {
  affine.for %j = 0 to 16 {
    %w = affine.load %B[%j] : memref<16xf32>
    %y = affine.apply #map(%j)
  }
  return
}
