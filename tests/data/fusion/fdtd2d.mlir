// EXPECT: any
// REFERENCE: wrong
// NOTE: fdtd-2d (PolyBench) time steps: ey, ex then hz; hz reads ex[i][j+1], ex is live out and written on rows hz never reads (MLIR 22.1.8 deletes its producer).
func.func @fdtd2d(%ex: memref<5x6xf32>, %ey: memref<5x6xf32>, %hz: memref<5x6xf32>, %fict: memref<3xf32>) {
  %half = arith.constant 0.5 : f32
  %k = arith.constant 0.75 : f32
  affine.for %t = 0 to 3 {
    affine.for %j = 0 to 6 {
      %f = affine.load %fict[%t] : memref<3xf32>
      affine.store %f, %ey[0, %j] : memref<5x6xf32>
    }
    affine.for %i = 1 to 5 {
      affine.for %j = 0 to 6 {
        %e = affine.load %ey[%i, %j] : memref<5x6xf32>
        %h0 = affine.load %hz[%i, %j] : memref<5x6xf32>
        %h1 = affine.load %hz[%i - 1, %j] : memref<5x6xf32>
        %d = arith.subf %h0, %h1 : f32
        %m = arith.mulf %half, %d : f32
        %r = arith.subf %e, %m : f32
        affine.store %r, %ey[%i, %j] : memref<5x6xf32>
      }
    }
    affine.for %i = 0 to 5 {
      affine.for %j = 1 to 6 {
        %e = affine.load %ex[%i, %j] : memref<5x6xf32>
        %h0 = affine.load %hz[%i, %j] : memref<5x6xf32>
        %h1 = affine.load %hz[%i, %j - 1] : memref<5x6xf32>
        %d = arith.subf %h0, %h1 : f32
        %m = arith.mulf %half, %d : f32
        %r = arith.subf %e, %m : f32
        affine.store %r, %ex[%i, %j] : memref<5x6xf32>
      }
    }
    affine.for %i = 0 to 4 {
      affine.for %j = 0 to 5 {
        %h = affine.load %hz[%i, %j] : memref<5x6xf32>
        %x1 = affine.load %ex[%i, %j + 1] : memref<5x6xf32>
        %x0 = affine.load %ex[%i, %j] : memref<5x6xf32>
        %y1 = affine.load %ey[%i + 1, %j] : memref<5x6xf32>
        %y0 = affine.load %ey[%i, %j] : memref<5x6xf32>
        %dx = arith.subf %x1, %x0 : f32
        %s = arith.addf %dx, %y1 : f32
        %dy = arith.subf %s, %y0 : f32
        %m = arith.mulf %k, %dy : f32
        %r = arith.subf %h, %m : f32
        affine.store %r, %hz[%i, %j] : memref<5x6xf32>
      }
    }
  }
  return
}
