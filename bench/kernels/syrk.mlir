// PolyBench 4.2 syrk: C := alpha*A*A' + beta*C on the lower triangle, in PolyBench's loop order.
// N=800, M=700.
func.func @kernel(%alpha: f64, %beta: f64, %C: memref<800x800xf64>, %A: memref<800x700xf64>) {
  affine.for %i = 0 to 800 {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      %c = affine.load %C[%i, %j] : memref<800x800xf64>
      %c1 = arith.mulf %c, %beta : f64
      affine.store %c1, %C[%i, %j] : memref<800x800xf64>
    }
    affine.for %k = 0 to 700 {
      affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
        %a = affine.load %A[%i, %k] : memref<800x700xf64>
        %aa = arith.mulf %alpha, %a : f64
        %b = affine.load %A[%j, %k] : memref<800x700xf64>
        %p = arith.mulf %aa, %b : f64
        %c = affine.load %C[%i, %j] : memref<800x800xf64>
        %s = arith.addf %c, %p : f64
        affine.store %s, %C[%i, %j] : memref<800x800xf64>
      }
    }
  }
  return
}
