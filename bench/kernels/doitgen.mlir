// PolyBench 4.2 doitgen: A[r][q][:] := A[r][q][:] * C4, in PolyBench's loop order.
// NR=150, NQ=140, NP=160 (LARGE).
func.func @kernel(%A: memref<150x140x160xf64>, %C4: memref<160x160xf64>, %sum: memref<160xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %r = 0 to 150 {
    affine.for %q = 0 to 140 {
      affine.for %p = 0 to 160 {
        affine.store %zero, %sum[%p] : memref<160xf64>
        affine.for %s = 0 to 160 {
          %a = affine.load %A[%r, %q, %s] : memref<150x140x160xf64>
          %c = affine.load %C4[%s, %p] : memref<160x160xf64>
          %m = arith.mulf %a, %c : f64
          %t = affine.load %sum[%p] : memref<160xf64>
          %n = arith.addf %t, %m : f64
          affine.store %n, %sum[%p] : memref<160xf64>
        }
      }
      affine.for %p = 0 to 160 {
        %t = affine.load %sum[%p] : memref<160xf64>
        affine.store %t, %A[%r, %q, %p] : memref<150x140x160xf64>
      }
    }
  }
  return
}
