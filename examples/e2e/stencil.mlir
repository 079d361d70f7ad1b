// Example of the iteration-space view (tests/test_vscode_e2e.py, step 05):
// a 2-d stencil whose store feeds the loads one iteration later along %i and %j.
func.func @stencil(%A: memref<16x16xf32>) {
  affine.for %i = 1 to 8 {
    affine.for %j = 1 to 6 {
      %a = affine.load %A[%i - 1, %j] : memref<16x16xf32>
      %b = affine.load %A[%i, %j - 1] : memref<16x16xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %A[%i, %j] : memref<16x16xf32>
    }
  }
  return
}
