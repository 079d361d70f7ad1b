func.func @a(%A: memref<64xf32>) {
  %v = affine.laod %A[0] : memref<64xf32>
  return
}

func.func @b() {
  %s = arith.addf %q, %q : f32
  return
}
