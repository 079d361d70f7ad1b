func.func @a() {
  %s = arith.addf %q, %q : f32
  return
}

func.func @b(%A: memref<8x8xf32>) {
  %v = "affine.load"(%A) {map = affine_map<() -> (0)>} : (memref<8x8xf32>) -> f32
  return
}
