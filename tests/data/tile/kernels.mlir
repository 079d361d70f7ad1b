// Kernels for the tiling / interchange execution tests (PolyBench-style).
//
// Every function is run by the generated @main of tests/test_vectorize_harness.py:
// memref arguments are filled with a deterministic pattern, `index`
// arguments take the values of the `// args:` line above the function, and
// every written memref is printed. Trip counts are small and mostly not
// multiples of the tile sizes, so partial tiles are exercised.

// C += A * B: fully permutable; interchange for locality puts %j innermost.
func.func @matmul(%A: memref<13x11xf32>, %B: memref<11x9xf32>, %C: memref<13x9xf32>) {
  affine.for %i = 0 to 13 {
    affine.for %j = 0 to 9 {
      affine.for %k = 0 to 11 {
        %a = affine.load %A[%i, %k] : memref<13x11xf32>
        %b = affine.load %B[%k, %j] : memref<11x9xf32>
        %c = affine.load %C[%i, %j] : memref<13x9xf32>
        %m = arith.mulf %a, %b : f32
        %s = arith.addf %c, %m : f32
        affine.store %s, %C[%i, %j] : memref<13x9xf32>
      }
    }
  }
  return
}

// The same with symbolic bounds (min bounds with symbols in the intra-tile loops).
// args: 10 7 9
func.func @matmul_sym(%A: memref<13x11xf32>, %B: memref<11x9xf32>, %C: memref<13x9xf32>, %n: index, %m: index, %p: index) {
  affine.for %i = 1 to %n {
    affine.for %j = 0 to %m {
      affine.for %k = 0 to %p {
        %a = affine.load %A[%i, %k] : memref<13x11xf32>
        %b = affine.load %B[%k, %j] : memref<11x9xf32>
        %c = affine.load %C[%i, %j] : memref<13x9xf32>
        %x = arith.mulf %a, %b : f32
        %s = arith.addf %c, %x : f32
        affine.store %s, %C[%i, %j] : memref<13x9xf32>
      }
    }
  }
  return
}

// Out-of-place transpose with the stride-1 access on the outer loop.
func.func @transpose(%A: memref<17x12xf32>, %B: memref<12x17xf32>) {
  affine.for %j = 0 to 12 {
    affine.for %i = 0 to 17 {
      %a = affine.load %A[%i, %j] : memref<17x12xf32>
      %c = arith.constant 2.0 : f32
      %b = arith.mulf %a, %c : f32
      affine.store %b, %B[%j, %i] : memref<12x17xf32>
    }
  }
  return
}

// Column-major traversal of row-major arrays: interchange for locality
// makes %j (stride 1 in both accesses) innermost.
func.func @copy_colmajor(%A: memref<9x14xf32>, %B: memref<9x14xf32>) {
  affine.for %j = 0 to 14 {
    affine.for %i = 0 to 9 {
      %a = affine.load %A[%i, %j] : memref<9x14xf32>
      %b = affine.load %B[%i, %j] : memref<9x14xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %B[%i, %j] : memref<9x14xf32>
    }
  }
  return
}

// Column sums accumulated in memory: %j stays innermost (three unit-stride
// accesses against two invariant ones); every order is legal.
func.func @column_sums(%A: memref<15x10xf32>, %S: memref<10xf32>) {
  affine.for %i = 0 to 15 {
    affine.for %j = 0 to 10 {
      %a = affine.load %A[%i, %j] : memref<15x10xf32>
      %s = affine.load %S[%j] : memref<10xf32>
      %t = arith.addf %s, %a : f32
      affine.store %t, %S[%j] : memref<10xf32>
    }
  }
  return
}

// Steps, shifted and max/min bounds.
// args: 3 22
func.func @steps(%A: memref<30x30xf32>, %lo: index, %hi: index) {
  affine.for %i = max affine_map<()[s0] -> (1, s0)>()[%lo] to min affine_map<()[s0] -> (s0, 27)>()[%hi] step 2 {
    affine.for %j = 2 to 29 step 3 {
      %a = affine.load %A[%i, %j] : memref<30x30xf32>
      %b = affine.load %A[%i - 1, %j] : memref<30x30xf32>
      %c = arith.addf %a, %b : f32
      affine.store %c, %A[%i, %j] : memref<30x30xf32>
    }
  }
  return
}

// In-place 1-D Gauss-Seidel over time: distances (0,1), (1,0), (1,-1).
// Not permutable (tiling and interchange change the result); skewing %i
// by %t makes it permutable.
func.func @seidel_1d(%A: memref<20xf32>) {
  %third = arith.constant 0.333333 : f32
  affine.for %t = 0 to 6 {
    affine.for %i = 1 to 19 {
      %a = affine.load %A[%i - 1] : memref<20xf32>
      %b = affine.load %A[%i] : memref<20xf32>
      %c = affine.load %A[%i + 1] : memref<20xf32>
      %s = arith.addf %a, %b : f32
      %u = arith.addf %s, %c : f32
      %v = arith.mulf %u, %third : f32
      affine.store %v, %A[%i] : memref<20xf32>
    }
  }
  return
}

// PolyBench seidel-2d (9-point, in place): the skew is (t, t + i, 2t + i + j).
func.func @seidel_2d(%A: memref<12x14xf32>) {
  %ninth = arith.constant 0.111111 : f32
  affine.for %t = 0 to 4 {
    affine.for %i = 1 to 11 {
      affine.for %j = 1 to 13 {
        %a0 = affine.load %A[%i - 1, %j - 1] : memref<12x14xf32>
        %a1 = affine.load %A[%i - 1, %j] : memref<12x14xf32>
        %a2 = affine.load %A[%i - 1, %j + 1] : memref<12x14xf32>
        %a3 = affine.load %A[%i, %j - 1] : memref<12x14xf32>
        %a4 = affine.load %A[%i, %j] : memref<12x14xf32>
        %a5 = affine.load %A[%i, %j + 1] : memref<12x14xf32>
        %a6 = affine.load %A[%i + 1, %j - 1] : memref<12x14xf32>
        %a7 = affine.load %A[%i + 1, %j] : memref<12x14xf32>
        %a8 = affine.load %A[%i + 1, %j + 1] : memref<12x14xf32>
        %s0 = arith.addf %a0, %a1 : f32
        %s1 = arith.addf %s0, %a2 : f32
        %s2 = arith.addf %s1, %a3 : f32
        %s3 = arith.addf %s2, %a4 : f32
        %s4 = arith.addf %s3, %a5 : f32
        %s5 = arith.addf %s4, %a6 : f32
        %s6 = arith.addf %s5, %a7 : f32
        %s7 = arith.addf %s6, %a8 : f32
        %v = arith.mulf %s7, %ninth : f32
        affine.store %v, %A[%i, %j] : memref<12x14xf32>
      }
    }
  }
  return
}

// PolyBench jacobi-1d: two 1-D bands per time step (strip-mined by --all).
func.func @jacobi_1d(%A: memref<22xf32>, %B: memref<22xf32>) {
  %third = arith.constant 0.333333 : f32
  affine.for %t = 0 to 5 {
    affine.for %i = 1 to 21 {
      %a = affine.load %A[%i - 1] : memref<22xf32>
      %b = affine.load %A[%i] : memref<22xf32>
      %c = affine.load %A[%i + 1] : memref<22xf32>
      %s = arith.addf %a, %b : f32
      %u = arith.addf %s, %c : f32
      %v = arith.mulf %u, %third : f32
      affine.store %v, %B[%i] : memref<22xf32>
    }
    affine.for %i = 1 to 21 {
      %b = affine.load %B[%i] : memref<22xf32>
      affine.store %b, %A[%i] : memref<22xf32>
    }
  }
  return
}

// PolyBench jacobi-2d: the two inner bands are permutable (tiled), the time
// loop is not part of a perfect band.
func.func @jacobi_2d(%A: memref<11x13xf32>, %B: memref<11x13xf32>) {
  %fifth = arith.constant 0.2 : f32
  affine.for %t = 0 to 3 {
    affine.for %i = 1 to 10 {
      affine.for %j = 1 to 12 {
        %a = affine.load %A[%i, %j] : memref<11x13xf32>
        %b = affine.load %A[%i, %j - 1] : memref<11x13xf32>
        %c = affine.load %A[%i, %j + 1] : memref<11x13xf32>
        %d = affine.load %A[%i - 1, %j] : memref<11x13xf32>
        %e = affine.load %A[%i + 1, %j] : memref<11x13xf32>
        %s0 = arith.addf %a, %b : f32
        %s1 = arith.addf %s0, %c : f32
        %s2 = arith.addf %s1, %d : f32
        %s3 = arith.addf %s2, %e : f32
        %v = arith.mulf %s3, %fifth : f32
        affine.store %v, %B[%i, %j] : memref<11x13xf32>
      }
    }
    affine.for %i = 1 to 10 {
      affine.for %j = 1 to 12 {
        %b = affine.load %B[%i, %j] : memref<11x13xf32>
        affine.store %b, %A[%i, %j] : memref<11x13xf32>
      }
    }
  }
  return
}

// A wavefront A[i][j] = A[i-1][j+1] + A[i][j-1]: distances (1,-1), (0,1).
func.func @wavefront(%A: memref<14x16xf32>) {
  affine.for %i = 1 to 14 {
    affine.for %j = 1 to 15 {
      %a = affine.load %A[%i - 1, %j + 1] : memref<14x16xf32>
      %b = affine.load %A[%i, %j - 1] : memref<14x16xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %A[%i, %j] : memref<14x16xf32>
    }
  }
  return
}

// A triangular nest (not hyper-rectangular): only %i is tiled; the
// interchange is refused (the bounds of %j use %i).
func.func @triangular(%A: memref<12x12xf32>, %S: memref<12xf32>) {
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      %a = affine.load %A[%i, %j] : memref<12x12xf32>
      %s = affine.load %S[%j] : memref<12xf32>
      %t = arith.addf %s, %a : f32
      affine.store %t, %S[%j] : memref<12xf32>
    }
  }
  return
}

// A symbolic band whose trip count is known (lb to lb + 5): one tile.
// args: 2 4
func.func @fixed_trip(%A: memref<12x12xf32>, %m: index, %n: index) {
  affine.for %i = affine_map<(d0) -> (d0)>(%m) to affine_map<(d0) -> (d0 + 5)>(%m) {
    affine.for %j = affine_map<(d0) -> (d0)>(%n) to affine_map<(d0) -> (d0 + 7)>(%n) {
      %a = affine.load %A[%i, %j] : memref<12x12xf32>
      %b = affine.load %A[%i + 1, %j - 1] : memref<12x12xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %A[%i + 1, %j] : memref<12x12xf32>
    }
  }
  return
}

// Column-major traversal with a dependence of distance (1, -1) along (%j, %i):
// %j innermost would be better for locality, but the interchange (and the
// tiling) would reverse the dependence.
func.func @colmajor_dep(%A: memref<10x12xf32>) {
  affine.for %j = 0 to 11 {
    affine.for %i = 1 to 10 {
      %a = affine.load %A[%i - 1, %j + 1] : memref<10x12xf32>
      %b = affine.load %A[%i, %j] : memref<10x12xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %A[%i, %j] : memref<10x12xf32>
    }
  }
  return
}
