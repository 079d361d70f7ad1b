// PolyBench 4.2 symm: C := alpha*A*B + beta*C with A symmetric (lower triangle stored),
// in PolyBench's loop order (temp2 is a reduction: iter_args). M=500, N=700.
func.func @kernel(%alpha: f64, %beta: f64, %C: memref<500x700xf64>, %A: memref<500x500xf64>, %B: memref<500x700xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 500 {
    affine.for %j = 0 to 700 {
      %t2 = affine.for %k = 0 to affine_map<(d0) -> (d0)>(%i) iter_args(%acc = %zero) -> (f64) {
        %bij = affine.load %B[%i, %j] : memref<500x700xf64>
        %ab = arith.mulf %alpha, %bij : f64
        %aik = affine.load %A[%i, %k] : memref<500x500xf64>
        %p = arith.mulf %ab, %aik : f64
        %ckj = affine.load %C[%k, %j] : memref<500x700xf64>
        %s = arith.addf %ckj, %p : f64
        affine.store %s, %C[%k, %j] : memref<500x700xf64>
        %bkj = affine.load %B[%k, %j] : memref<500x700xf64>
        %q = arith.mulf %bkj, %aik : f64
        %n = arith.addf %acc, %q : f64
        affine.yield %n : f64
      }
      %cij = affine.load %C[%i, %j] : memref<500x700xf64>
      %bc = arith.mulf %beta, %cij : f64
      %bij = affine.load %B[%i, %j] : memref<500x700xf64>
      %ab = arith.mulf %alpha, %bij : f64
      %aii = affine.load %A[%i, %i] : memref<500x500xf64>
      %aba = arith.mulf %ab, %aii : f64
      %at = arith.mulf %alpha, %t2 : f64
      %s1 = arith.addf %bc, %aba : f64
      %s2 = arith.addf %s1, %at : f64
      affine.store %s2, %C[%i, %j] : memref<500x700xf64>
    }
  }
  return
}
