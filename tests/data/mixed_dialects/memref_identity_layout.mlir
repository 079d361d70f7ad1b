func.func @f() {
  %A = memref.alloc() : memref<4xf32, affine_map<(d0) -> (d0)>>
  %v = affine.load %A[0] : memref<4xf32>
  return
}
