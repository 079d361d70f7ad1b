// PolyBench 4.2 gramschmidt: QR decomposition by modified Gram-Schmidt, in PolyBench's loop order.
// M=600 rows, N=500 columns (the nrm reduction is an iter_args loop).
func.func @kernel(%A: memref<600x500xf64>, %R: memref<500x500xf64>, %Q: memref<600x500xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %k = 0 to 500 {
    %nrm = affine.for %i = 0 to 600 iter_args(%acc = %zero) -> (f64) {
      %a = affine.load %A[%i, %k] : memref<600x500xf64>
      %a2 = arith.mulf %a, %a : f64
      %s = arith.addf %acc, %a2 : f64
      affine.yield %s : f64
    }
    %r = math.sqrt %nrm : f64
    affine.store %r, %R[%k, %k] : memref<500x500xf64>
    affine.for %i = 0 to 600 {
      %a = affine.load %A[%i, %k] : memref<600x500xf64>
      %rkk = affine.load %R[%k, %k] : memref<500x500xf64>
      %q = arith.divf %a, %rkk : f64
      affine.store %q, %Q[%i, %k] : memref<600x500xf64>
    }
    affine.for %j = affine_map<(d0) -> (d0 + 1)>(%k) to 500 {
      affine.store %zero, %R[%k, %j] : memref<500x500xf64>
      affine.for %i = 0 to 600 {
        %r0 = affine.load %R[%k, %j] : memref<500x500xf64>
        %q = affine.load %Q[%i, %k] : memref<600x500xf64>
        %a = affine.load %A[%i, %j] : memref<600x500xf64>
        %p = arith.mulf %q, %a : f64
        %s = arith.addf %r0, %p : f64
        affine.store %s, %R[%k, %j] : memref<500x500xf64>
      }
      affine.for %i = 0 to 600 {
        %a = affine.load %A[%i, %j] : memref<600x500xf64>
        %q = affine.load %Q[%i, %k] : memref<600x500xf64>
        %rkj = affine.load %R[%k, %j] : memref<500x500xf64>
        %p = arith.mulf %q, %rkj : f64
        %s = arith.subf %a, %p : f64
        affine.store %s, %A[%i, %j] : memref<600x500xf64>
      }
    }
  }
  return
}
