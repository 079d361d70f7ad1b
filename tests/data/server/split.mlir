// Two independent sections, as in mlir-opt --split-input-file.
#map = affine_map<(d0) -> (d0 * 2)>
func.func @first(%A: memref<32xf32>) {
  affine.for %i = 0 to 16 {
    %x = affine.apply #map(%i)
    %v = affine.load %A[%x] : memref<32xf32>
  }
  return
}

// -----

#map = affine_map<(d0) -> (d0 + 3)>
func.func @second(%A: memref<32xf32>) {
  affine.for %i = 0 to 16 {
    %x = affine.apply #map(%i)
    %v = affine.load %A[%x] : memref<32xf32>
  }
  return
}

// -----

func.func @third(%A: memref<8xf32>) {
  %v = affine.load %A[%undefined] : memref<8xf32>
  return
}
