// PolyBench 4.2 correlation: means, standard deviations (eps-guarded), centring and reduction,
// then the upper triangle of the correlation matrix mirrored, in PolyBench's loop order.
// M=500 columns, N=600 rows.
func.func @kernel(%data: memref<600x500xf64>, %corr: memref<500x500xf64>, %mean: memref<500xf64>, %stddev: memref<500xf64>) {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %n = arith.constant 600.0 : f64
  %eps = arith.constant 0.1 : f64
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
  affine.for %j = 0 to 500 {
    affine.store %zero, %stddev[%j] : memref<500xf64>
    affine.for %i = 0 to 600 {
      %sd = affine.load %stddev[%j] : memref<500xf64>
      %d = affine.load %data[%i, %j] : memref<600x500xf64>
      %m = affine.load %mean[%j] : memref<500xf64>
      %c = arith.subf %d, %m : f64
      %c2 = arith.mulf %c, %c : f64
      %s = arith.addf %sd, %c2 : f64
      affine.store %s, %stddev[%j] : memref<500xf64>
    }
    %sd = affine.load %stddev[%j] : memref<500xf64>
    %v = arith.divf %sd, %n : f64
    %r = math.sqrt %v : f64
    %small = arith.cmpf ole, %r, %eps : f64
    %g = arith.select %small, %one, %r : f64
    affine.store %g, %stddev[%j] : memref<500xf64>
  }
  %sqn = math.sqrt %n : f64
  affine.for %i = 0 to 600 {
    affine.for %j = 0 to 500 {
      %d = affine.load %data[%i, %j] : memref<600x500xf64>
      %m = affine.load %mean[%j] : memref<500xf64>
      %c = arith.subf %d, %m : f64
      %sd = affine.load %stddev[%j] : memref<500xf64>
      %den = arith.mulf %sqn, %sd : f64
      %q = arith.divf %c, %den : f64
      affine.store %q, %data[%i, %j] : memref<600x500xf64>
    }
  }
  affine.for %i = 0 to 499 {
    affine.store %one, %corr[%i, %i] : memref<500x500xf64>
    affine.for %j = affine_map<(d0) -> (d0 + 1)>(%i) to 500 {
      affine.store %zero, %corr[%i, %j] : memref<500x500xf64>
      affine.for %k = 0 to 600 {
        %c = affine.load %corr[%i, %j] : memref<500x500xf64>
        %a = affine.load %data[%k, %i] : memref<600x500xf64>
        %b = affine.load %data[%k, %j] : memref<600x500xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %corr[%i, %j] : memref<500x500xf64>
      }
      %c = affine.load %corr[%i, %j] : memref<500x500xf64>
      affine.store %c, %corr[%j, %i] : memref<500x500xf64>
    }
  }
  affine.store %one, %corr[499, 499] : memref<500x500xf64>
  return
}
