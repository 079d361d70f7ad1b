// PolyBench 4.2 trmm: B := alpha*A'*B with A unit lower triangular, in PolyBench's loop order.
// M=600, N=700.
func.func @kernel(%alpha: f64, %A: memref<600x600xf64>, %B: memref<600x700xf64>) {
  affine.for %i = 0 to 600 {
    affine.for %j = 0 to 700 {
      affine.for %k = affine_map<(d0) -> (d0 + 1)>(%i) to 600 {
        %a = affine.load %A[%k, %i] : memref<600x600xf64>
        %b = affine.load %B[%k, %j] : memref<600x700xf64>
        %p = arith.mulf %a, %b : f64
        %bij = affine.load %B[%i, %j] : memref<600x700xf64>
        %s = arith.addf %bij, %p : f64
        affine.store %s, %B[%i, %j] : memref<600x700xf64>
      }
      %bij = affine.load %B[%i, %j] : memref<600x700xf64>
      %r = arith.mulf %alpha, %bij : f64
      affine.store %r, %B[%i, %j] : memref<600x700xf64>
    }
  }
  return
}
