module {
  func.func @f(%A: memref<10xf32>) {
    affine.for %i = 0 to 20 {
      %v = affine.load %A[%i] : memref<10xf32>
    }
    return
  }
}
