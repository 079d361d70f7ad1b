// Kernels for the vectorization / parallelization execution tests.
//
// Every function is run by a generated @main: each memref argument is
// allocated and filled with a deterministic pattern, `index` arguments take
// the values of the `// args:` line above the function, then every memref
// and every result is printed. Sizes are small and most trip counts are not
// multiples of the vector widths (4, 8, 16) on purpose.

// Element-wise, trip count 37.
func.func @add(%A: memref<40xf32>, %B: memref<40xf32>, %C: memref<40xf32>) {
  affine.for %i = 0 to 37 {
    %a = affine.load %A[%i] : memref<40xf32>
    %b = affine.load %B[%i] : memref<40xf32>
    %s = arith.addf %a, %b : f32
    affine.store %s, %C[%i] : memref<40xf32>
  }
  return
}

// Shifted lower/upper bounds, offsets, an invariant scalar, a constant.
func.func @saxpy_shifted(%X: memref<50xf32>, %Y: memref<50xf32>, %a: memref<f32>) {
  %two = arith.constant 2.0 : f32
  %s = affine.load %a[] : memref<f32>
  affine.for %i = 3 to 44 {
    %x = affine.load %X[%i + 2] : memref<50xf32>
    %y = affine.load %Y[%i - 3] : memref<50xf32>
    %m = arith.mulf %s, %x : f32
    %t = arith.addf %m, %y : f32
    %u = arith.mulf %t, %two : f32
    affine.store %u, %Y[%i - 3] : memref<50xf32>
  }
  return
}

// Symbolic trip count (unknown at compile time).
// args: 29
func.func @scale_n(%A: memref<40xf32>, %n: index) {
  %c = arith.constant 0.5 : f32
  affine.for %i = 1 to %n {
    %a = affine.load %A[%i] : memref<40xf32>
    %b = arith.mulf %a, %c : f32
    affine.store %b, %A[%i] : memref<40xf32>
  }
  return
}

// Inner-loop reductions (vector accumulator + vector.reduction), float.
func.func @reduce_f(%A: memref<6x45xf32>, %S: memref<6xf32>, %P: memref<6xf32>, %M: memref<6xf32>, %N: memref<6xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %big = arith.constant 1.0e30 : f32
  %small = arith.constant -3.0 : f32
  affine.for %i = 0 to 6 {
    %s, %p = affine.for %j = 0 to 45 iter_args(%as = %one, %ap = %one) -> (f32, f32) {
      %a = affine.load %A[%i, %j] : memref<6x45xf32>
      %q = arith.mulf %a, %a : f32
      %s1 = arith.addf %as, %q : f32
      %r = arith.divf %a, %big : f32
      %r1 = arith.addf %r, %one : f32
      %p1 = arith.mulf %ap, %r1 : f32
      affine.yield %s1, %p1 : f32, f32
    }
    %mn = affine.for %j = 0 to 43 iter_args(%am = %big) -> (f32) {
      %a = affine.load %A[%i, %j] : memref<6x45xf32>
      %m1 = arith.minimumf %am, %a : f32
      affine.yield %m1 : f32
    }
    %mx = affine.for %j = 2 to 45 iter_args(%am = %small) -> (f32) {
      %a = affine.load %A[%i, %j] : memref<6x45xf32>
      %m1 = arith.maxnumf %a, %am : f32
      affine.yield %m1 : f32
    }
    affine.store %s, %S[%i] : memref<6xf32>
    affine.store %p, %P[%i] : memref<6xf32>
    affine.store %mn, %M[%i] : memref<6xf32>
    affine.store %mx, %N[%i] : memref<6xf32>
  }
  return
}

// Integer reductions: add, mul, and, or, xor, signed/unsigned min/max.
func.func @reduce_i(%A: memref<3x21xi32>, %R: memref<3x9xi32>) {
  %z = arith.constant 0 : i32
  %o = arith.constant 1 : i32
  %m1 = arith.constant -1 : i32
  %big = arith.constant 1000 : i32
  %five = arith.constant 5 : i32
  affine.for %i = 0 to 3 {
    %r:9 = affine.for %j = 0 to 21 iter_args(%s = %five, %p = %o, %an = %m1, %or = %z, %x = %z, %mns = %big, %mxs = %z, %mnu = %m1, %mxu = %z) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32) {
      %a = affine.load %A[%i, %j] : memref<3x21xi32>
      %s1 = arith.addi %s, %a : i32
      %small = arith.andi %a, %five : i32
      %p1 = arith.muli %p, %small : i32
      %an1 = arith.andi %an, %a : i32
      %or1 = arith.ori %or, %a : i32
      %x1 = arith.xori %a, %x : i32
      %mns1 = arith.minsi %mns, %a : i32
      %mxs1 = arith.maxsi %mxs, %a : i32
      %mnu1 = arith.minui %mnu, %a : i32
      %mxu1 = arith.maxui %mxu, %a : i32
      affine.yield %s1, %p1, %an1, %or1, %x1, %mns1, %mxs1, %mnu1, %mxu1 : i32, i32, i32, i32, i32, i32, i32, i32, i32
    }
    affine.store %r#0, %R[%i, 0] : memref<3x9xi32>
    affine.store %r#1, %R[%i, 1] : memref<3x9xi32>
    affine.store %r#2, %R[%i, 2] : memref<3x9xi32>
    affine.store %r#3, %R[%i, 3] : memref<3x9xi32>
    affine.store %r#4, %R[%i, 4] : memref<3x9xi32>
    affine.store %r#5, %R[%i, 5] : memref<3x9xi32>
    affine.store %r#6, %R[%i, 6] : memref<3x9xi32>
    affine.store %r#7, %R[%i, 7] : memref<3x9xi32>
    affine.store %r#8, %R[%i, 8] : memref<3x9xi32>
  }
  return
}

// A whole-loop reduction returned as a result (unknown trip count).
// args: 35
func.func @dot(%A: memref<40xf32>, %B: memref<40xf32>, %n: index) -> f32 {
  %init = arith.constant 0.25 : f32
  %r = affine.for %i = 0 to %n iter_args(%acc = %init) -> (f32) {
    %a = affine.load %A[%i] : memref<40xf32>
    %b = affine.load %B[%i] : memref<40xf32>
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    affine.yield %s : f32
  }
  return %r : f32
}

// The RFC's example: a reduction in the inner loop over the outer
// dimension (outer-loop vectorization: lanes carry independent sums).
func.func @column_sums(%in: memref<16x30xf32>, %out: memref<30xf32>) {
  %cst = arith.constant 0.0 : f32
  affine.for %j = 0 to 30 {
    %red = affine.for %k = 0 to 16 iter_args(%acc = %cst) -> (f32) {
      %v = affine.load %in[%k, %j] : memref<16x30xf32>
      %a = arith.addf %acc, %v : f32
      affine.yield %a : f32
    }
    affine.store %red, %out[%j] : memref<30xf32>
  }
  return
}

// Nested reductions: both loops reduce into one scalar.
func.func @nested_reduction(%in: memref<7x27xf32>) -> f32 {
  %cst = arith.constant 1.5 : f32
  %zero = arith.constant 0.0 : f32
  %outer = affine.for %j = 0 to 27 iter_args(%oacc = %cst) -> (f32) {
    %inner = affine.for %i = 0 to 7 iter_args(%iacc = %zero) -> (f32) {
      %v = affine.load %in[%i, %j] : memref<7x27xf32>
      %a = arith.addf %iacc, %v : f32
      affine.yield %a : f32
    }
    %o = arith.addf %oacc, %inner : f32
    affine.yield %o : f32
  }
  return %outer : f32
}

// Matrix multiplication, accumulating in memory (i, j, k) and through
// iter_args (i, j, k with the reduction over k).
func.func @matmul(%A: memref<9x11xf32>, %B: memref<11x13xf32>, %C: memref<9x13xf32>) {
  affine.for %i = 0 to 9 {
    affine.for %j = 0 to 13 {
      affine.for %k = 0 to 11 {
        %a = affine.load %A[%i, %k] : memref<9x11xf32>
        %b = affine.load %B[%k, %j] : memref<11x13xf32>
        %c = affine.load %C[%i, %j] : memref<9x13xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<9x13xf32>
      }
    }
  }
  return
}

func.func @matmul_iter(%A: memref<9x19xf32>, %B: memref<19x10xf32>, %C: memref<9x10xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 9 {
    affine.for %j = 0 to 10 {
      %c = affine.for %k = 0 to 19 iter_args(%acc = %zero) -> (f32) {
        %a = affine.load %A[%i, %k] : memref<9x19xf32>
        %b = affine.load %B[%k, %j] : memref<19x10xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        affine.yield %s : f32
      }
      affine.store %c, %C[%i, %j] : memref<9x10xf32>
    }
  }
  return
}

// jacobi-1d (PolyBench), N = 30, 3 time steps.
func.func @jacobi_1d(%A: memref<30xf32>, %B: memref<30xf32>) {
  %third = arith.constant 0.33333 : f32
  affine.for %t = 0 to 3 {
    affine.for %i = 1 to 29 {
      %l = affine.load %A[%i - 1] : memref<30xf32>
      %c = affine.load %A[%i] : memref<30xf32>
      %r = affine.load %A[%i + 1] : memref<30xf32>
      %s1 = arith.addf %l, %c : f32
      %s2 = arith.addf %s1, %r : f32
      %v = arith.mulf %third, %s2 : f32
      affine.store %v, %B[%i] : memref<30xf32>
    }
    affine.for %i = 1 to 29 {
      %l = affine.load %B[%i - 1] : memref<30xf32>
      %c = affine.load %B[%i] : memref<30xf32>
      %r = affine.load %B[%i + 1] : memref<30xf32>
      %s1 = arith.addf %l, %c : f32
      %s2 = arith.addf %s1, %r : f32
      %v = arith.mulf %third, %s2 : f32
      affine.store %v, %A[%i] : memref<30xf32>
    }
  }
  return
}

// jacobi-2d (PolyBench), N = 14, 2 time steps.
func.func @jacobi_2d(%A: memref<14x14xf32>, %B: memref<14x14xf32>) {
  %fifth = arith.constant 0.2 : f32
  affine.for %t = 0 to 2 {
    affine.for %i = 1 to 13 {
      affine.for %j = 1 to 13 {
        %c = affine.load %A[%i, %j] : memref<14x14xf32>
        %w = affine.load %A[%i, %j - 1] : memref<14x14xf32>
        %e = affine.load %A[%i, %j + 1] : memref<14x14xf32>
        %n = affine.load %A[%i + 1, %j] : memref<14x14xf32>
        %s = affine.load %A[%i - 1, %j] : memref<14x14xf32>
        %a1 = arith.addf %c, %w : f32
        %a2 = arith.addf %a1, %e : f32
        %a3 = arith.addf %a2, %n : f32
        %a4 = arith.addf %a3, %s : f32
        %v = arith.mulf %fifth, %a4 : f32
        affine.store %v, %B[%i, %j] : memref<14x14xf32>
      }
    }
    affine.for %i = 1 to 13 {
      affine.for %j = 1 to 13 {
        %c = affine.load %B[%i, %j] : memref<14x14xf32>
        %w = affine.load %B[%i, %j - 1] : memref<14x14xf32>
        %e = affine.load %B[%i, %j + 1] : memref<14x14xf32>
        %n = affine.load %B[%i + 1, %j] : memref<14x14xf32>
        %s = affine.load %B[%i - 1, %j] : memref<14x14xf32>
        %a1 = arith.addf %c, %w : f32
        %a2 = arith.addf %a1, %e : f32
        %a3 = arith.addf %a2, %n : f32
        %a4 = arith.addf %a3, %s : f32
        %v = arith.mulf %fifth, %a4 : f32
        affine.store %v, %A[%i, %j] : memref<14x14xf32>
      }
    }
  }
  return
}

// fdtd-2d (PolyBench), NX = 11, NY = 13, 2 time steps.
func.func @fdtd_2d(%ex: memref<11x13xf32>, %ey: memref<11x13xf32>, %hz: memref<11x13xf32>, %fict: memref<2xf32>) {
  %half = arith.constant 0.5 : f32
  %c07 = arith.constant 0.7 : f32
  affine.for %t = 0 to 2 {
    %f = affine.load %fict[%t] : memref<2xf32>
    affine.for %j = 0 to 13 {
      affine.store %f, %ey[0, %j] : memref<11x13xf32>
    }
    affine.for %i = 1 to 11 {
      affine.for %j = 0 to 13 {
        %e = affine.load %ey[%i, %j] : memref<11x13xf32>
        %h1 = affine.load %hz[%i, %j] : memref<11x13xf32>
        %h0 = affine.load %hz[%i - 1, %j] : memref<11x13xf32>
        %d = arith.subf %h1, %h0 : f32
        %m = arith.mulf %half, %d : f32
        %v = arith.subf %e, %m : f32
        affine.store %v, %ey[%i, %j] : memref<11x13xf32>
      }
    }
    affine.for %i = 0 to 11 {
      affine.for %j = 1 to 13 {
        %e = affine.load %ex[%i, %j] : memref<11x13xf32>
        %h1 = affine.load %hz[%i, %j] : memref<11x13xf32>
        %h0 = affine.load %hz[%i, %j - 1] : memref<11x13xf32>
        %d = arith.subf %h1, %h0 : f32
        %m = arith.mulf %half, %d : f32
        %v = arith.subf %e, %m : f32
        affine.store %v, %ex[%i, %j] : memref<11x13xf32>
      }
    }
    affine.for %i = 0 to 10 {
      affine.for %j = 0 to 12 {
        %h = affine.load %hz[%i, %j] : memref<11x13xf32>
        %x1 = affine.load %ex[%i, %j + 1] : memref<11x13xf32>
        %x0 = affine.load %ex[%i, %j] : memref<11x13xf32>
        %y1 = affine.load %ey[%i + 1, %j] : memref<11x13xf32>
        %y0 = affine.load %ey[%i, %j] : memref<11x13xf32>
        %dx = arith.subf %x1, %x0 : f32
        %dy = arith.subf %y1, %y0 : f32
        %s = arith.addf %dx, %dy : f32
        %m = arith.mulf %c07, %s : f32
        %v = arith.subf %h, %m : f32
        affine.store %v, %hz[%i, %j] : memref<11x13xf32>
      }
    }
  }
  return
}

// syrk (PolyBench, lower triangle): the j loops run to i + 1.
func.func @syrk(%A: memref<12x7xf32>, %C: memref<12x12xf32>) {
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.2 : f32
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      %c = affine.load %C[%i, %j] : memref<12x12xf32>
      %m = arith.mulf %c, %beta : f32
      affine.store %m, %C[%i, %j] : memref<12x12xf32>
    }
    affine.for %k = 0 to 7 {
      affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
        %a = affine.load %A[%j, %k] : memref<12x7xf32>
        %b = affine.load %A[%i, %k] : memref<12x7xf32>
        %ab = arith.mulf %alpha, %b : f32
        %p = arith.mulf %ab, %a : f32
        %c = affine.load %C[%i, %j] : memref<12x12xf32>
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<12x12xf32>
      }
    }
  }
  return
}

// Shifted in-place stencils: the first is vectorizable (each load runs
// before the store that overwrites its element), the second is not.
func.func @shift_left(%A: memref<33xf32>) {
  affine.for %i = 0 to 31 {
    %a = affine.load %A[%i + 1] : memref<33xf32>
    %b = affine.load %A[%i] : memref<33xf32>
    %s = arith.addf %a, %b : f32
    affine.store %s, %A[%i] : memref<33xf32>
  }
  return
}

func.func @shift_right(%A: memref<33xf32>) {
  affine.for %i = 0 to 31 {
    %a = affine.load %A[%i] : memref<33xf32>
    affine.store %a, %A[%i + 1] : memref<33xf32>
  }
  return
}

// A dependence at distance 20: legal for widths up to 20.
func.func @far_dependence(%A: memref<60xf32>) {
  affine.for %i = 0 to 35 {
    %a = affine.load %A[%i] : memref<60xf32>
    %two = arith.constant 2.0 : f32
    %b = arith.mulf %a, %two : f32
    affine.store %b, %A[%i + 20] : memref<60xf32>
  }
  return
}

// Step-2 and step-3 loops: accesses are strided (refused), but a reduction
// over the induction variable itself vectorizes (lanes i, i+2, ...).
func.func @step2(%A: memref<40xf32>, %B: memref<40xf32>) -> i64 {
  affine.for %i = 0 to 35 step 2 {
    %a = affine.load %A[%i] : memref<40xf32>
    %one = arith.constant 1.0 : f32
    %b = arith.addf %a, %one : f32
    affine.store %b, %B[%i + 1] : memref<40xf32>
  }
  %z = arith.constant 0 : i64
  %r = affine.for %i = 1 to 40 step 3 iter_args(%acc = %z) -> (i64) {
    %c = arith.index_cast %i : index to i64
    %sq = arith.muli %c, %c : i64
    %s = arith.addi %acc, %sq : i64
    affine.yield %s : i64
  }
  return %r : i64
}

// The induction variable as a value (MLIR rejects this loop); integer
// division with masked lanes.
func.func @iota_div(%A: memref<30xi32>, %B: memref<30xi32>) {
  %seven = arith.constant 7 : i32
  affine.for %i = 0 to 27 {
    %c = arith.index_cast %i : index to i32
    %d = affine.apply affine_map<(d0) -> (d0 * 3 + 1)>(%i)
    %dc = arith.index_cast %d : index to i32
    %b = affine.load %B[%i] : memref<30xi32>
    %bb = arith.andi %b, %seven : i32
    %den = arith.subi %bb, %c : i32
    %one = arith.constant 1 : i32
    %den1 = arith.ori %den, %one : i32
    %q = arith.divsi %dc, %den1 : i32
    affine.store %q, %A[%i] : memref<30xi32>
  }
  return
}

// Accesses along a non-fastest dimension (permutation maps) and an
// explicitly transposed copy.
func.func @transpose(%A: memref<10x13xf32>, %B: memref<13x10xf32>, %S: memref<13xf32>) {
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 13 {
      %a = affine.load %A[%i, %j] : memref<10x13xf32>
      affine.store %a, %B[%j, %i] : memref<13x10xf32>
    }
  }
  affine.for %j = 0 to 13 {
    %zero = arith.constant 0.0 : f32
    %s = affine.for %i = 0 to 10 iter_args(%acc = %zero) -> (f32) {
      %a = affine.load %B[%j, %i] : memref<13x10xf32>
      %t = arith.addf %acc, %a : f32
      affine.yield %t : f32
    }
    affine.store %s, %S[%j] : memref<13xf32>
  }
  return
}

// Conversions, comparisons and selects, math ops, f64 and i64.
func.func @mixed(%A: memref<23xf64>, %B: memref<23xi64>, %C: memref<23xf64>) {
  %h = arith.constant 0.5 : f64
  affine.for %i = 0 to 23 {
    %a = affine.load %A[%i] : memref<23xf64>
    %b = affine.load %B[%i] : memref<23xi64>
    %bf = arith.sitofp %b : i64 to f64
    %gt = arith.cmpf ogt, %a, %bf : f64
    %m = arith.select %gt, %a, %bf : f64
    %e = math.absf %m : f64
    %r = math.sqrt %e : f64
    %s = arith.addf %r, %h : f64
    affine.store %s, %C[%i] : memref<23xf64>
  }
  return
}

// Outer-loop vectorization with mixed inner-loop state: a uniform scalar
// recurrence, a vector one, the IV as a value inside the inner loop, and a
// uniform inner loop whose result feeds vector code.
func.func @outer_mix(%A: memref<6x19xf32>, %D: memref<3xf32>, %B: memref<19xf32>, %C: memref<19xi32>) {
  %z = arith.constant 0.0 : f32
  %zi = arith.constant 0 : i32
  affine.for %j = 0 to 19 {
    %s, %t, %u = affine.for %k = 0 to 6 iter_args(%a = %z, %b = %z, %c = %zi) -> (f32, f32, i32) {
      %k32 = arith.index_cast %k : index to i32
      %kf = arith.sitofp %k32 : i32 to f32
      %a1 = arith.addf %a, %kf : f32
      %x = affine.load %A[%k, %j] : memref<6x19xf32>
      %b1 = arith.addf %b, %x : f32
      %jj = arith.index_cast %j : index to i32
      %c1 = arith.addi %c, %jj : i32
      affine.yield %a1, %b1, %c1 : f32, f32, i32
    }
    %q = affine.for %k = 0 to 3 iter_args(%acc = %z) -> (f32) {
      %d = affine.load %D[%k] : memref<3xf32>
      %e = arith.mulf %d, %d : f32
      %f = arith.addf %acc, %e : f32
      affine.yield %f : f32
    }
    %w = arith.addf %s, %t : f32
    %w2 = arith.mulf %w, %q : f32
    affine.store %w2, %B[%j] : memref<19xf32>
    affine.store %u, %C[%j] : memref<19xi32>
  }
  return
}
