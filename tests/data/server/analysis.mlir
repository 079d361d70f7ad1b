// Diagnostics of the dependence analysis.
func.func @racy(%A: memref<100xf32>) {
  affine.parallel (%i) = (0) to (99) {
    %v = affine.load %A[%i + 1] : memref<100xf32>
    affine.store %v, %A[%i] : memref<100xf32>
  }
  return
}

func.func @out_of_bounds(%A: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    %v = affine.load %A[%i + 1] : memref<10xf32>
  }
  return
}

func.func @fine(%A: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    %v = affine.load %A[%i] : memref<10xf32>
  }
  return
}

func.func @vector(%A: memref<64xf32>, %B: memref<64xf32>) {
  affine.for %i = 0 to 64 step 8 {
    %v = affine.vector_load %A[%i] : memref<64xf32>, vector<8xf32>
    affine.vector_store %v, %B[%i] : memref<64xf32>, vector<8xf32>
  }
  return
}
