// PolyBench 4.2 syr2k: C := alpha*A*B' + alpha*B*A' + beta*C on the lower triangle,
// in PolyBench's loop order. N=800, M=600 (between MEDIUM and LARGE).
func.func @kernel(%alpha: f64, %beta: f64, %C: memref<800x800xf64>, %A: memref<800x600xf64>, %B: memref<800x600xf64>) {
  affine.for %i = 0 to 800 {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      %c = affine.load %C[%i, %j] : memref<800x800xf64>
      %c1 = arith.mulf %c, %beta : f64
      affine.store %c1, %C[%i, %j] : memref<800x800xf64>
    }
    affine.for %k = 0 to 600 {
      affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
        %ajk = affine.load %A[%j, %k] : memref<800x600xf64>
        %x = arith.mulf %ajk, %alpha : f64
        %bik = affine.load %B[%i, %k] : memref<800x600xf64>
        %p = arith.mulf %x, %bik : f64
        %bjk = affine.load %B[%j, %k] : memref<800x600xf64>
        %y = arith.mulf %bjk, %alpha : f64
        %aik = affine.load %A[%i, %k] : memref<800x600xf64>
        %q = arith.mulf %y, %aik : f64
        %pq = arith.addf %p, %q : f64
        %c = affine.load %C[%i, %j] : memref<800x800xf64>
        %s = arith.addf %c, %pq : f64
        affine.store %s, %C[%i, %j] : memref<800x800xf64>
      }
    }
  }
  return
}
