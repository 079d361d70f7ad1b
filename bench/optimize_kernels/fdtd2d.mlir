func.func @kernel(%ex: memref<600x600xf64>, %ey: memref<600x600xf64>, %hz: memref<600x600xf64>, %fict: memref<50xf64>) {
  %half = arith.constant 0.5 : f64
  %c7 = arith.constant 0.7 : f64
  affine.for %t = 0 to 50 {
    affine.for %j = 0 to 600 {
      %f = affine.load %fict[%t] : memref<50xf64>
      affine.store %f, %ey[0, %j] : memref<600x600xf64>
    }
    affine.for %i = 1 to 600 {
      affine.for %j = 0 to 600 {
        %e = affine.load %ey[%i, %j] : memref<600x600xf64>
        %h0 = affine.load %hz[%i, %j] : memref<600x600xf64>
        %h1 = affine.load %hz[%i - 1, %j] : memref<600x600xf64>
        %d = arith.subf %h0, %h1 : f64
        %m = arith.mulf %half, %d : f64
        %v = arith.subf %e, %m : f64
        affine.store %v, %ey[%i, %j] : memref<600x600xf64>
      }
    }
    affine.for %i = 0 to 600 {
      affine.for %j = 1 to 600 {
        %e = affine.load %ex[%i, %j] : memref<600x600xf64>
        %h0 = affine.load %hz[%i, %j] : memref<600x600xf64>
        %h1 = affine.load %hz[%i, %j - 1] : memref<600x600xf64>
        %d = arith.subf %h0, %h1 : f64
        %m = arith.mulf %half, %d : f64
        %v = arith.subf %e, %m : f64
        affine.store %v, %ex[%i, %j] : memref<600x600xf64>
      }
    }
    affine.for %i = 0 to 599 {
      affine.for %j = 0 to 599 {
        %h = affine.load %hz[%i, %j] : memref<600x600xf64>
        %x1 = affine.load %ex[%i, %j + 1] : memref<600x600xf64>
        %x0 = affine.load %ex[%i, %j] : memref<600x600xf64>
        %y1 = affine.load %ey[%i + 1, %j] : memref<600x600xf64>
        %y0 = affine.load %ey[%i, %j] : memref<600x600xf64>
        %dx = arith.subf %x1, %x0 : f64
        %dy = arith.subf %y1, %y0 : f64
        %s = arith.addf %dx, %dy : f64
        %m = arith.mulf %c7, %s : f64
        %v = arith.subf %h, %m : f64
        affine.store %v, %hz[%i, %j] : memref<600x600xf64>
      }
    }
  }
  return
}
