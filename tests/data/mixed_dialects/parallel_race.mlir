func.func @f(%m: memref<4xf32>, %v: f32) {
  affine.parallel (%i) = (0) to (8) {
    affine.store %v, %m[0] : memref<4xf32>
  }
  return
}
