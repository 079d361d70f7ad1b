// 2-D convolution (valid): out[i][j] = sum_{p,q} in[i+p][j+q] * w[p][q], image 2048x2048, 11x11 filter;
// the natural loop order (i, j, p, q), the accumulator in memory as PolyBench writes reductions.
func.func @kernel(%in: memref<2058x2058xf64>, %w: memref<11x11xf64>, %out: memref<2048x2048xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 2048 {
    affine.for %j = 0 to 2048 {
      affine.store %zero, %out[%i, %j] : memref<2048x2048xf64>
      affine.for %p = 0 to 11 {
        affine.for %q = 0 to 11 {
          %x = affine.load %in[%i + %p, %j + %q] : memref<2058x2058xf64>
          %k = affine.load %w[%p, %q] : memref<11x11xf64>
          %m = arith.mulf %x, %k : f64
          %o = affine.load %out[%i, %j] : memref<2048x2048xf64>
          %s = arith.addf %o, %m : f64
          affine.store %s, %out[%i, %j] : memref<2048x2048xf64>
        }
      }
    }
  }
  return
}
