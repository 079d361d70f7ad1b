// PolyBench-style kernels for the unroll / unroll-and-jam / hoist /
// scalar-replacement execution tests (tests/test_loop_toolbox_exec.py).
//
// Every function is run by the generated @main of tests/test_vectorize_harness.py:
// memref arguments are filled with a deterministic pattern, `index`
// arguments take the values of the `// args:` line above the function,
// then every written memref and every result is printed. Trip counts are
// mostly odd, so unrolling needs cleanup loops.

// gemm: C = beta * C + alpha * A * B, the k loop reducing in iter_args.
func.func @gemm(%A: memref<7x9xf32>, %B: memref<9x5xf32>, %C: memref<7x5xf32>) {
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 0.5 : f32
  affine.for %i = 0 to 7 {
    affine.for %j = 0 to 5 {
      %c = affine.load %C[%i, %j] : memref<7x5xf32>
      %c0 = arith.mulf %c, %beta : f32
      %s = affine.for %k = 0 to 9 iter_args(%acc = %c0) -> (f32) {
        %a = affine.load %A[%i, %k] : memref<7x9xf32>
        %b = affine.load %B[%k, %j] : memref<9x5xf32>
        %p = arith.mulf %a, %b : f32
        %q = arith.mulf %p, %alpha : f32
        %r = arith.addf %acc, %q : f32
        affine.yield %r : f32
      }
      affine.store %s, %C[%i, %j] : memref<7x5xf32>
    }
  }
  return
}

// jacobi-1d: a time loop around two sweeps (the time loop carries
// dependences both ways).
func.func @jacobi_1d(%A: memref<20xf32>, %B: memref<20xf32>) {
  %third = arith.constant 0.333333 : f32
  affine.for %t = 0 to 5 {
    affine.for %i = 1 to 19 {
      %a0 = affine.load %A[%i - 1] : memref<20xf32>
      %a1 = affine.load %A[%i] : memref<20xf32>
      %a2 = affine.load %A[%i + 1] : memref<20xf32>
      %s0 = arith.addf %a0, %a1 : f32
      %s1 = arith.addf %s0, %a2 : f32
      %m = arith.mulf %s1, %third : f32
      affine.store %m, %B[%i] : memref<20xf32>
    }
    affine.for %i = 1 to 19 {
      %b = affine.load %B[%i] : memref<20xf32>
      affine.store %b, %A[%i] : memref<20xf32>
    }
  }
  return
}

// seidel-2d: Gauss-Seidel in place (dependences with negative inner
// components: unroll-and-jam of %t or %i reverses them).
func.func @seidel_2d(%A: memref<10x10xf32>) {
  %ninth = arith.constant 0.111111 : f32
  affine.for %t = 0 to 3 {
    affine.for %i = 1 to 9 {
      affine.for %j = 1 to 9 {
        %a00 = affine.load %A[%i - 1, %j - 1] : memref<10x10xf32>
        %a01 = affine.load %A[%i - 1, %j] : memref<10x10xf32>
        %a02 = affine.load %A[%i - 1, %j + 1] : memref<10x10xf32>
        %a10 = affine.load %A[%i, %j - 1] : memref<10x10xf32>
        %a11 = affine.load %A[%i, %j] : memref<10x10xf32>
        %a12 = affine.load %A[%i, %j + 1] : memref<10x10xf32>
        %a20 = affine.load %A[%i + 1, %j - 1] : memref<10x10xf32>
        %a21 = affine.load %A[%i + 1, %j] : memref<10x10xf32>
        %a22 = affine.load %A[%i + 1, %j + 1] : memref<10x10xf32>
        %s0 = arith.addf %a00, %a01 : f32
        %s1 = arith.addf %s0, %a02 : f32
        %s2 = arith.addf %s1, %a10 : f32
        %s3 = arith.addf %s2, %a11 : f32
        %s4 = arith.addf %s3, %a12 : f32
        %s5 = arith.addf %s4, %a20 : f32
        %s6 = arith.addf %s5, %a21 : f32
        %s7 = arith.addf %s6, %a22 : f32
        %m = arith.mulf %s7, %ninth : f32
        affine.store %m, %A[%i, %j] : memref<10x10xf32>
      }
    }
  }
  return
}

// A wavefront: A[i][j] depends on A[i-1][j+1] (distance (1, -1)).
func.func @skewed(%A: memref<12x12xi32>) {
  affine.for %i = 1 to 11 {
    affine.for %j = 0 to 11 {
      %a = affine.load %A[%i - 1, %j + 1] : memref<12x12xi32>
      %b = affine.load %A[%i, %j] : memref<12x12xi32>
      %c = arith.addi %a, %b : i32
      affine.store %c, %A[%i, %j] : memref<12x12xi32>
    }
  }
  return
}

// The same with distance (1, 1): unroll-and-jam is legal.
func.func @forward(%A: memref<12x12xi32>) {
  affine.for %i = 1 to 12 {
    affine.for %j = 1 to 12 {
      %a = affine.load %A[%i - 1, %j - 1] : memref<12x12xi32>
      %b = affine.load %A[%i, %j] : memref<12x12xi32>
      %c = arith.muli %a, %b : i32
      %d = arith.addi %c, %a : i32
      affine.store %d, %A[%i, %j] : memref<12x12xi32>
    }
  }
  return
}

// Sub-blocks before and after the inner loop, written by a later outer
// iteration: S2(i) -> S1(i+1) through %T (jam reverses it).
func.func @imperfect(%A: memref<16xi32>, %T: memref<17xi32>, %B: memref<16x6xi32>) {
  affine.for %i = 0 to 15 {
    %t = affine.load %T[%i] : memref<17xi32>
    %a = affine.load %A[%i] : memref<16xi32>
    %s = arith.addi %t, %a : i32
    affine.for %j = 0 to 6 {
      %b = affine.load %B[%i, %j] : memref<16x6xi32>
      %c = arith.addi %b, %s : i32
      affine.store %c, %B[%i, %j] : memref<16x6xi32>
    }
    %u = arith.muli %s, %s : i32
    affine.store %u, %T[%i + 1] : memref<17xi32>
  }
  return
}

// Symbolic trip counts (cleanup loops with symbolic bounds).
// args: 13 6
func.func @symbolic(%A: memref<16x8xf32>, %n: index, %m: index) {
  %one = arith.constant 1.0 : f32
  affine.for %i = 1 to %n {
    affine.for %j = 0 to %m {
      %a = affine.load %A[%i, %j] : memref<16x8xf32>
      %b = affine.load %A[%i - 1, %j] : memref<16x8xf32>
      %c = arith.addf %a, %b : f32
      %d = arith.addf %c, %one : f32
      affine.store %d, %A[%i, %j] : memref<16x8xf32>
    }
  }
  return
}

// A symbolic trip count that is zero: no cleanup iteration may run.
// args: 0
func.func @symbolic_empty(%A: memref<8xf32>, %n: index) {
  %two = arith.constant 2.0 : f32
  affine.for %i = 1 to %n {
    %a = affine.load %A[%i] : memref<8xf32>
    %b = arith.addf %a, %two : f32
    affine.store %b, %A[%i] : memref<8xf32>
  }
  return
}

// Tiles with min bounds, step 3 and a non-zero lower bound.
func.func @tiled_min(%A: memref<30xi32>, %B: memref<30xi32>) {
  affine.for %ii = 0 to 29 step 8 {
    affine.for %i = affine_map<(d0) -> (d0 + 1)>(%ii) to min affine_map<(d0) -> (d0 + 8, 29)>(%ii) {
      %a = affine.load %A[%i] : memref<30xi32>
      %b = affine.load %A[%i - 1] : memref<30xi32>
      %c = arith.subi %a, %b : i32
      affine.store %c, %B[%i] : memref<30xi32>
    }
  }
  affine.for %k = 2 to 27 step 3 {
    %a = affine.load %B[%k] : memref<30xi32>
    %c = arith.muli %a, %a : i32
    affine.store %c, %A[%k] : memref<30xi32>
  }
  return
}

// syrk-like triangle: the inner bound depends on the outer IV.
func.func @syrk(%A: memref<8x6xf32>, %C: memref<8x8xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      %c = affine.load %C[%i, %j] : memref<8x8xf32>
      %s = affine.for %k = 0 to 6 iter_args(%acc = %c) -> (f32) {
        %a = affine.load %A[%i, %k] : memref<8x6xf32>
        %b = affine.load %A[%j, %k] : memref<8x6xf32>
        %p = arith.mulf %a, %b : f32
        %r = arith.addf %acc, %p : f32
        affine.yield %r : f32
      }
      affine.store %s, %C[%i, %j] : memref<8x8xf32>
    }
  }
  return
}

// Two reductions in iter_args, one returned, and a full-unroll candidate.
func.func @reductions(%A: memref<11x5xi32>) -> (i32, i32) {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %s:2 = affine.for %i = 0 to 11 iter_args(%x = %zero, %y = %one) -> (i32, i32) {
    %r = affine.for %j = 0 to 5 iter_args(%z = %x) -> (i32) {
      %a = affine.load %A[%i, %j] : memref<11x5xi32>
      %b = arith.addi %z, %a : i32
      affine.yield %b : i32
    }
    %c = arith.muli %y, %r : i32
    %d = arith.remsi %c, %r : i32
    %e = arith.addi %d, %one : i32
    affine.yield %r, %e : i32, i32
  }
  return %s#0, %s#1 : i32, i32
}

// Invariant code: a constant scale loaded from a memref not written in the
// loops, arithmetic on it, an invariant affine.if, an invariant store.
func.func @invariant(%A: memref<9x7xf32>, %S: memref<2xf32>, %F: memref<3xf32>) {
  %c1 = arith.constant 1 : index
  affine.for %i = 0 to 9 {
    affine.for %j = 0 to 7 {
      %s = affine.load %S[0] : memref<2xf32>
      %t = affine.load %S[%c1] : memref<2xf32>
      %st = arith.mulf %s, %t : f32
      %a = affine.load %A[%i, %j] : memref<9x7xf32>
      %b = arith.mulf %a, %st : f32
      affine.store %b, %A[%i, %j] : memref<9x7xf32>
      affine.if affine_set<(d0) : (d0 - 4 >= 0)>(%i) {
        %w = arith.addf %st, %st : f32
        affine.store %w, %F[1] : memref<3xf32>
      }
    }
  }
  return
}

// Store-to-load forwarding and redundant loads, with blocked cases:
// a write in an inner loop between the store and the load, a read of
// another element, a load after a store to a possibly equal element.
// args: 3
func.func @scalrep(%A: memref<10xf32>, %B: memref<10x10xf32>, %T: memref<10xf32>, %k: index) {
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 10 {
    %a = affine.load %A[%i] : memref<10xf32>
    %d = arith.mulf %a, %two : f32
    affine.store %d, %T[%i] : memref<10xf32>
    %t = affine.load %T[%i] : memref<10xf32>
    %a2 = affine.load %A[%i] : memref<10xf32>
    %e = arith.addf %t, %a2 : f32
    affine.for %j = 0 to 10 {
      %t2 = affine.load %T[%i] : memref<10xf32>
      %b = affine.load %B[%i, %j] : memref<10x10xf32>
      %f = arith.addf %t2, %b : f32
      affine.store %f, %B[%i, %j] : memref<10x10xf32>
      %b2 = affine.load %B[%i, %j] : memref<10x10xf32>
      %g = arith.addf %b2, %e : f32
      affine.store %g, %T[%j] : memref<10xf32>
    }
    %t3 = affine.load %T[%i] : memref<10xf32>
    affine.store %t3, %A[%i] : memref<10xf32>
    affine.store %two, %A[symbol(%k)] : memref<10xf32>
    %t4 = affine.load %A[%i] : memref<10xf32>
    %h = arith.addf %t4, %t3 : f32
    affine.store %h, %T[%i] : memref<10xf32>
  }
  return
}

// doitgen: a temporary per (r, q), summed then copied back.
func.func @doitgen(%A: memref<3x4x5xf32>, %C4: memref<5x5xf32>, %sum: memref<5xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %r = 0 to 3 {
    affine.for %q = 0 to 4 {
      affine.for %p = 0 to 5 {
        affine.store %zero, %sum[%p] : memref<5xf32>
        affine.for %s = 0 to 5 {
          %a = affine.load %A[%r, %q, %s] : memref<3x4x5xf32>
          %c = affine.load %C4[%s, %p] : memref<5x5xf32>
          %m = arith.mulf %a, %c : f32
          %o = affine.load %sum[%p] : memref<5xf32>
          %n = arith.addf %o, %m : f32
          affine.store %n, %sum[%p] : memref<5xf32>
        }
      }
      affine.for %p = 0 to 5 {
        %v = affine.load %sum[%p] : memref<5xf32>
        affine.store %v, %A[%r, %q, %p] : memref<3x4x5xf32>
      }
    }
  }
  return
}

// A symbolic trip count of zero, counted: a cleanup loop starting below
// the lower bound would count iterations the original never ran.
// args: 0
func.func @count_empty(%n: index) -> i32 {
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r = affine.for %i = 1 to %n iter_args(%c = %z) -> (i32) {
    %d = arith.addi %c, %one : i32
    affine.yield %d : i32
  }
  return %r : i32
}

// A symbolic lower bound and step 2.
// args: 2 17
func.func @symbolic_step(%A: memref<20xi32>, %lo: index, %n: index) {
  %three = arith.constant 3 : i32
  affine.for %i = affine_map<()[s0] -> (s0 + 1)>()[%lo] to %n step 2 {
    %a = affine.load %A[%i] : memref<20xi32>
    %b = arith.muli %a, %three : i32
    %ii = arith.index_cast %i : index to i32
    %c = arith.addi %b, %ii : i32
    affine.store %c, %A[%i] : memref<20xi32>
  }
  return
}

// Dead stores: one overwritten in the same iteration (removed), one read
// before it is overwritten, one overwritten only under a condition, one
// overwritten at another element (all kept).
func.func @dead_stores(%A: memref<10xf32>, %B: memref<10xf32>, %C: memref<11xf32>) {
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 10 {
    affine.store %one, %A[%i] : memref<10xf32>
    %b = affine.load %B[%i] : memref<10xf32>
    %c = arith.addf %b, %one : f32
    affine.store %c, %A[%i] : memref<10xf32>
    affine.store %c, %B[%i] : memref<10xf32>
    %d = affine.load %B[%i] : memref<10xf32>
    %e = arith.mulf %d, %d : f32
    affine.store %e, %B[%i] : memref<10xf32>
    affine.if affine_set<(d0) : (d0 - 5 >= 0)>(%i) {
      affine.store %one, %A[%i] : memref<10xf32>
    }
    affine.store %e, %C[%i] : memref<11xf32>
    affine.store %c, %C[%i + 1] : memref<11xf32>
  }
  return
}
