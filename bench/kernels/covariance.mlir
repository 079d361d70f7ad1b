// PolyBench 4.2 covariance: column means, centring, then the upper triangle of data'*data / (N-1)
// mirrored, in PolyBench's loop order. M=500 columns, N=600 rows.
func.func @kernel(%data: memref<600x500xf64>, %cov: memref<500x500xf64>, %mean: memref<500xf64>) {
  %zero = arith.constant 0.0 : f64
  %n = arith.constant 600.0 : f64
  %one = arith.constant 1.0 : f64
  %n1 = arith.subf %n, %one : f64
  affine.for %j = 0 to 500 {
    affine.store %zero, %mean[%j] : memref<500xf64>
    affine.for %i = 0 to 600 {
      %m = affine.load %mean[%j] : memref<500xf64>
      %d = affine.load %data[%i, %j] : memref<600x500xf64>
      %s = arith.addf %m, %d : f64
      affine.store %s, %mean[%j] : memref<500xf64>
    }
    %m = affine.load %mean[%j] : memref<500xf64>
    %q = arith.divf %m, %n : f64
    affine.store %q, %mean[%j] : memref<500xf64>
  }
  affine.for %i = 0 to 600 {
    affine.for %j = 0 to 500 {
      %d = affine.load %data[%i, %j] : memref<600x500xf64>
      %m = affine.load %mean[%j] : memref<500xf64>
      %s = arith.subf %d, %m : f64
      affine.store %s, %data[%i, %j] : memref<600x500xf64>
    }
  }
  affine.for %i = 0 to 500 {
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to 500 {
      affine.store %zero, %cov[%i, %j] : memref<500x500xf64>
      affine.for %k = 0 to 600 {
        %c = affine.load %cov[%i, %j] : memref<500x500xf64>
        %a = affine.load %data[%k, %i] : memref<600x500xf64>
        %b = affine.load %data[%k, %j] : memref<600x500xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %cov[%i, %j] : memref<500x500xf64>
      }
      %c = affine.load %cov[%i, %j] : memref<500x500xf64>
      %q = arith.divf %c, %n1 : f64
      affine.store %q, %cov[%i, %j] : memref<500x500xf64>
      affine.store %q, %cov[%j, %i] : memref<500x500xf64>
    }
  }
  return
}
