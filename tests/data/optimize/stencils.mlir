// The stencils and floyd-warshall of bench/kernels at small sizes (tests/test_optimize_stencil.py):
// large enough that one time step's data exceeds half of L1, so that automatic mode time-tiles them.
func.func @jacobi_1d(%A: memref<4000xf64>, %B: memref<4000xf64>) {
  %c = arith.constant 0.33333 : f64
  affine.for %t = 0 to 20 {
    affine.for %i = 1 to 3999 {
      %a0 = affine.load %A[%i - 1] : memref<4000xf64>
      %a1 = affine.load %A[%i] : memref<4000xf64>
      %a2 = affine.load %A[%i + 1] : memref<4000xf64>
      %s0 = arith.addf %a0, %a1 : f64
      %s1 = arith.addf %s0, %a2 : f64
      %v = arith.mulf %c, %s1 : f64
      affine.store %v, %B[%i] : memref<4000xf64>
    }
    affine.for %i = 1 to 3999 {
      %b0 = affine.load %B[%i - 1] : memref<4000xf64>
      %b1 = affine.load %B[%i] : memref<4000xf64>
      %b2 = affine.load %B[%i + 1] : memref<4000xf64>
      %s0 = arith.addf %b0, %b1 : f64
      %s1 = arith.addf %s0, %b2 : f64
      %v = arith.mulf %c, %s1 : f64
      affine.store %v, %A[%i] : memref<4000xf64>
    }
  }
  return
}
func.func @jacobi_2d(%A: memref<64x64xf64>, %B: memref<64x64xf64>) {
  %c = arith.constant 0.2 : f64
  affine.for %t = 0 to 12 {
    affine.for %i = 1 to 63 {
      affine.for %j = 1 to 63 {
        %a0 = affine.load %A[%i, %j] : memref<64x64xf64>
        %a1 = affine.load %A[%i, %j - 1] : memref<64x64xf64>
        %a2 = affine.load %A[%i, %j + 1] : memref<64x64xf64>
        %a3 = affine.load %A[%i + 1, %j] : memref<64x64xf64>
        %a4 = affine.load %A[%i - 1, %j] : memref<64x64xf64>
        %s0 = arith.addf %a0, %a1 : f64
        %s1 = arith.addf %s0, %a2 : f64
        %s2 = arith.addf %s1, %a3 : f64
        %s3 = arith.addf %s2, %a4 : f64
        %v = arith.mulf %c, %s3 : f64
        affine.store %v, %B[%i, %j] : memref<64x64xf64>
      }
    }
    affine.for %i = 1 to 63 {
      affine.for %j = 1 to 63 {
        %b0 = affine.load %B[%i, %j] : memref<64x64xf64>
        %b1 = affine.load %B[%i, %j - 1] : memref<64x64xf64>
        %b2 = affine.load %B[%i, %j + 1] : memref<64x64xf64>
        %b3 = affine.load %B[%i + 1, %j] : memref<64x64xf64>
        %b4 = affine.load %B[%i - 1, %j] : memref<64x64xf64>
        %s0 = arith.addf %b0, %b1 : f64
        %s1 = arith.addf %s0, %b2 : f64
        %s2 = arith.addf %s1, %b3 : f64
        %s3 = arith.addf %s2, %b4 : f64
        %v = arith.mulf %c, %s3 : f64
        affine.store %v, %A[%i, %j] : memref<64x64xf64>
      }
    }
  }
  return
}
func.func @heat_3d(%A: memref<18x18x18xf64>, %B: memref<18x18x18xf64>) {
  %two = arith.constant 2.0 : f64
  %eighth = arith.constant 0.125 : f64
  affine.for %t = 1 to 11 {
    affine.for %i = 1 to 17 {
      affine.for %j = 1 to 17 {
        affine.for %k = 1 to 17 {
          %c = affine.load %A[%i, %j, %k] : memref<18x18x18xf64>
          %ip = affine.load %A[%i + 1, %j, %k] : memref<18x18x18xf64>
          %im = affine.load %A[%i - 1, %j, %k] : memref<18x18x18xf64>
          %jp = affine.load %A[%i, %j + 1, %k] : memref<18x18x18xf64>
          %jm = affine.load %A[%i, %j - 1, %k] : memref<18x18x18xf64>
          %kp = affine.load %A[%i, %j, %k + 1] : memref<18x18x18xf64>
          %km = affine.load %A[%i, %j, %k - 1] : memref<18x18x18xf64>
          %c2 = arith.mulf %two, %c : f64
          %ia = arith.subf %ip, %c2 : f64
          %ib = arith.addf %ia, %im : f64
          %ic = arith.mulf %eighth, %ib : f64
          %ja = arith.subf %jp, %c2 : f64
          %jb = arith.addf %ja, %jm : f64
          %jc = arith.mulf %eighth, %jb : f64
          %ka = arith.subf %kp, %c2 : f64
          %kb = arith.addf %ka, %km : f64
          %kc = arith.mulf %eighth, %kb : f64
          %s0 = arith.addf %ic, %jc : f64
          %s1 = arith.addf %s0, %kc : f64
          %v = arith.addf %s1, %c : f64
          affine.store %v, %B[%i, %j, %k] : memref<18x18x18xf64>
        }
      }
    }
    affine.for %i = 1 to 17 {
      affine.for %j = 1 to 17 {
        affine.for %k = 1 to 17 {
          %c = affine.load %B[%i, %j, %k] : memref<18x18x18xf64>
          %ip = affine.load %B[%i + 1, %j, %k] : memref<18x18x18xf64>
          %im = affine.load %B[%i - 1, %j, %k] : memref<18x18x18xf64>
          %jp = affine.load %B[%i, %j + 1, %k] : memref<18x18x18xf64>
          %jm = affine.load %B[%i, %j - 1, %k] : memref<18x18x18xf64>
          %kp = affine.load %B[%i, %j, %k + 1] : memref<18x18x18xf64>
          %km = affine.load %B[%i, %j, %k - 1] : memref<18x18x18xf64>
          %c2 = arith.mulf %two, %c : f64
          %ia = arith.subf %ip, %c2 : f64
          %ib = arith.addf %ia, %im : f64
          %ic = arith.mulf %eighth, %ib : f64
          %ja = arith.subf %jp, %c2 : f64
          %jb = arith.addf %ja, %jm : f64
          %jc = arith.mulf %eighth, %jb : f64
          %ka = arith.subf %kp, %c2 : f64
          %kb = arith.addf %ka, %km : f64
          %kc = arith.mulf %eighth, %kb : f64
          %s0 = arith.addf %ic, %jc : f64
          %s1 = arith.addf %s0, %kc : f64
          %v = arith.addf %s1, %c : f64
          affine.store %v, %A[%i, %j, %k] : memref<18x18x18xf64>
        }
      }
    }
  }
  return
}
func.func @fdtd_2d(%ex: memref<40x50xf64>, %ey: memref<40x50xf64>, %hz: memref<40x50xf64>, %fict: memref<8xf64>) {
  %half = arith.constant 0.5 : f64
  %c07 = arith.constant 0.7 : f64
  affine.for %t = 0 to 8 {
    affine.for %j = 0 to 50 {
      %f = affine.load %fict[%t] : memref<8xf64>
      affine.store %f, %ey[0, %j] : memref<40x50xf64>
    }
    affine.for %i = 1 to 40 {
      affine.for %j = 0 to 50 {
        %e = affine.load %ey[%i, %j] : memref<40x50xf64>
        %h0 = affine.load %hz[%i, %j] : memref<40x50xf64>
        %h1 = affine.load %hz[%i - 1, %j] : memref<40x50xf64>
        %d = arith.subf %h0, %h1 : f64
        %m = arith.mulf %half, %d : f64
        %v = arith.subf %e, %m : f64
        affine.store %v, %ey[%i, %j] : memref<40x50xf64>
      }
    }
    affine.for %i = 0 to 40 {
      affine.for %j = 1 to 50 {
        %e = affine.load %ex[%i, %j] : memref<40x50xf64>
        %h0 = affine.load %hz[%i, %j] : memref<40x50xf64>
        %h1 = affine.load %hz[%i, %j - 1] : memref<40x50xf64>
        %d = arith.subf %h0, %h1 : f64
        %m = arith.mulf %half, %d : f64
        %v = arith.subf %e, %m : f64
        affine.store %v, %ex[%i, %j] : memref<40x50xf64>
      }
    }
    affine.for %i = 0 to 39 {
      affine.for %j = 0 to 49 {
        %h = affine.load %hz[%i, %j] : memref<40x50xf64>
        %x1 = affine.load %ex[%i, %j + 1] : memref<40x50xf64>
        %x0 = affine.load %ex[%i, %j] : memref<40x50xf64>
        %y1 = affine.load %ey[%i + 1, %j] : memref<40x50xf64>
        %y0 = affine.load %ey[%i, %j] : memref<40x50xf64>
        %dx = arith.subf %x1, %x0 : f64
        %s = arith.addf %dx, %y1 : f64
        %dy = arith.subf %s, %y0 : f64
        %m = arith.mulf %c07, %dy : f64
        %v = arith.subf %h, %m : f64
        affine.store %v, %hz[%i, %j] : memref<40x50xf64>
      }
    }
  }
  return
}
func.func @seidel_2d(%A: memref<40x40xf64>) {
  %nine = arith.constant 9.0 : f64
  affine.for %t = 0 to 6 {
    affine.for %i = 1 to 39 {
      affine.for %j = 1 to 39 {
        %a0 = affine.load %A[%i - 1, %j - 1] : memref<40x40xf64>
        %a1 = affine.load %A[%i - 1, %j] : memref<40x40xf64>
        %a2 = affine.load %A[%i - 1, %j + 1] : memref<40x40xf64>
        %a3 = affine.load %A[%i, %j - 1] : memref<40x40xf64>
        %a4 = affine.load %A[%i, %j] : memref<40x40xf64>
        %a5 = affine.load %A[%i, %j + 1] : memref<40x40xf64>
        %a6 = affine.load %A[%i + 1, %j - 1] : memref<40x40xf64>
        %a7 = affine.load %A[%i + 1, %j] : memref<40x40xf64>
        %a8 = affine.load %A[%i + 1, %j + 1] : memref<40x40xf64>
        %s0 = arith.addf %a0, %a1 : f64
        %s1 = arith.addf %s0, %a2 : f64
        %s2 = arith.addf %s1, %a3 : f64
        %s3 = arith.addf %s2, %a4 : f64
        %s4 = arith.addf %s3, %a5 : f64
        %s5 = arith.addf %s4, %a6 : f64
        %s6 = arith.addf %s5, %a7 : f64
        %s7 = arith.addf %s6, %a8 : f64
        %v = arith.divf %s7, %nine : f64
        affine.store %v, %A[%i, %j] : memref<40x40xf64>
      }
    }
  }
  return
}
func.func @floyd_warshall(%path: memref<40x40xf64>) {
  affine.for %k = 0 to 40 {
    affine.for %i = 0 to 40 {
      affine.for %j = 0 to 40 {
        %ij = affine.load %path[%i, %j] : memref<40x40xf64>
        %ik = affine.load %path[%i, %k] : memref<40x40xf64>
        %kj = affine.load %path[%k, %j] : memref<40x40xf64>
        %s = arith.addf %ik, %kj : f64
        %lt = arith.cmpf olt, %ij, %s : f64
        %m = arith.select %lt, %ij, %s : f64
        affine.store %m, %path[%i, %j] : memref<40x40xf64>
      }
    }
  }
  return
}
