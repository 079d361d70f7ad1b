// PolyBench 4.2 fdtd-2d: 2-D finite-difference time domain, in PolyBench's loop order.
// TMAX=100, NX=1000, NY=1200 (LARGE).
func.func @kernel(%ex: memref<1000x1200xf64>, %ey: memref<1000x1200xf64>, %hz: memref<1000x1200xf64>, %fict: memref<100xf64>) {
  %half = arith.constant 0.5 : f64
  %c07 = arith.constant 0.7 : f64
  affine.for %t = 0 to 100 {
    affine.for %j = 0 to 1200 {
      %f = affine.load %fict[%t] : memref<100xf64>
      affine.store %f, %ey[0, %j] : memref<1000x1200xf64>
    }
    affine.for %i = 1 to 1000 {
      affine.for %j = 0 to 1200 {
        %e = affine.load %ey[%i, %j] : memref<1000x1200xf64>
        %h0 = affine.load %hz[%i, %j] : memref<1000x1200xf64>
        %h1 = affine.load %hz[%i - 1, %j] : memref<1000x1200xf64>
        %d = arith.subf %h0, %h1 : f64
        %m = arith.mulf %half, %d : f64
        %v = arith.subf %e, %m : f64
        affine.store %v, %ey[%i, %j] : memref<1000x1200xf64>
      }
    }
    affine.for %i = 0 to 1000 {
      affine.for %j = 1 to 1200 {
        %e = affine.load %ex[%i, %j] : memref<1000x1200xf64>
        %h0 = affine.load %hz[%i, %j] : memref<1000x1200xf64>
        %h1 = affine.load %hz[%i, %j - 1] : memref<1000x1200xf64>
        %d = arith.subf %h0, %h1 : f64
        %m = arith.mulf %half, %d : f64
        %v = arith.subf %e, %m : f64
        affine.store %v, %ex[%i, %j] : memref<1000x1200xf64>
      }
    }
    affine.for %i = 0 to 999 {
      affine.for %j = 0 to 1199 {
        %h = affine.load %hz[%i, %j] : memref<1000x1200xf64>
        %x1 = affine.load %ex[%i, %j + 1] : memref<1000x1200xf64>
        %x0 = affine.load %ex[%i, %j] : memref<1000x1200xf64>
        %y1 = affine.load %ey[%i + 1, %j] : memref<1000x1200xf64>
        %y0 = affine.load %ey[%i, %j] : memref<1000x1200xf64>
        %dx = arith.subf %x1, %x0 : f64
        %s = arith.addf %dx, %y1 : f64
        %dy = arith.subf %s, %y0 : f64
        %m = arith.mulf %c07, %dy : f64
        %v = arith.subf %h, %m : f64
        affine.store %v, %hz[%i, %j] : memref<1000x1200xf64>
      }
    }
  }
  return
}
