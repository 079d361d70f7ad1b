// Explanations checked against the facts they name (tests/test_server_explanations.py).
func.func @accumulate(%A: memref<10xf32>, %s: memref<1xf32>) {
  affine.for %i = 0 to 10 {
    %a = affine.load %A[%i] : memref<10xf32>
    %t = affine.load %s[0] : memref<1xf32>
    %u = arith.addf %t, %a : f32
    affine.store %u, %s[0] : memref<1xf32>
  }
  return
}

func.func @copy(%A: memref<99xf32>, %B: memref<99xf32>) {
  affine.for %i = 0 to 99 {
    %v = affine.load %A[%i] : memref<99xf32>
    affine.store %v, %B[%i] : memref<99xf32>
  }
  return
}
