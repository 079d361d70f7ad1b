// The loop structures of MLIR's mlir/test/Dialect/Affine/loop-tiling.mlir
// (the -affine-loop-tile tests), transcribed with runnable bodies: the
// "test.*" ops and dead loads became stores, vector elements became f32,
// memref results were dropped, and the big constant trip counts were scaled
// down keeping what they test (multiples of 32, not multiples, smaller than
// a tile). One function per upstream function, with the same name.

#lb = affine_map<()[s0] -> (0, s0)>
#ub = affine_map<()[s0, s1] -> (s0, 4096 floordiv s1)>
#ub_min = affine_map<(d0)[s0] -> (d0, s0)>

// Trip counts 64 x 64 x 96 (multiples of 32: no min), 50 (min), 21 (one tile).
func.func @loop_tiling(%A: memref<64x64x96xi32>, %B: memref<50xi32>, %C: memref<21xi32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      affine.for %k = 0 to 96 {
        %s = arith.addi %i, %j : index
        %t = arith.addi %s, %k : index
        %v = arith.index_cast %t : index to i32
        affine.store %v, %A[%i, %j, %k] : memref<64x64x96xi32>
      }
    }
  }
  affine.for %x = 0 to 50 {
    %v = arith.index_cast %x : index to i32
    affine.store %v, %B[%x] : memref<50xi32>
  }
  affine.for %y = 0 to 21 {
    %v = arith.index_cast %y : index to i32
    affine.store %v, %C[%y] : memref<21xi32>
  }
  return
}

// max/min bounds with a semi-affine symbol term.
// args: 3 70
func.func @loop_max_min_bound(%A: memref<50xi32>, %L: index, %U: index) {
  %c0 = arith.constant 0 : index
  %M = memref.dim %A, %c0 : memref<50xi32>
  affine.for %i = max #lb()[%L] to min #ub()[%M, %U] {
    %v = arith.index_cast %i : index to i32
    %w = arith.addi %v, %v : i32
    affine.store %w, %A[%i] : memref<50xi32>
  }
  return
}

func.func @simple_matmul(%arg0: memref<64x64xf32>, %arg1: memref<64x64xf32>, %arg2: memref<64x64xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      affine.for %k = 0 to 50 {
        %l = affine.load %arg0[%i, %k] : memref<64x64xf32>
        %r = affine.load %arg1[%k, %j] : memref<64x64xf32>
        %o = affine.load %arg2[%i, %j] : memref<64x64xf32>
        %m = arith.mulf %l, %r : f32
        %a = arith.addf %o, %m : f32
        affine.store %a, %arg2[%i, %j] : memref<64x64xf32>
      }
    }
  }
  return
}

func.func @tile_using_symbolic_loop_upper_bounds(%arg0: memref<40x40xf32>, %arg1: memref<40x40xf32>, %arg2: memref<40x40xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = memref.dim %arg0, %c0 : memref<40x40xf32>
  affine.for %i0 = 0 to %0 {
    affine.for %i1 = 0 to %0 {
      affine.store %cst, %arg2[%i0, %i1] : memref<40x40xf32>
      affine.for %i2 = 0 to %0 {
        %1 = affine.load %arg0[%i0, %i2] : memref<40x40xf32>
        %2 = affine.load %arg1[%i2, %i1] : memref<40x40xf32>
        %3 = arith.mulf %1, %2 : f32
        %4 = affine.load %arg2[%i0, %i1] : memref<40x40xf32>
        %5 = arith.addf %4, %3 : f32
        affine.store %5, %arg2[%i0, %i1] : memref<40x40xf32>
      }
    }
  }
  return
}

// args: 9
func.func @tile_using_loop_upper_bounds_in_two_symbols(%arg0: memref<45xf32>, %limit: index) {
  %c0 = arith.constant 0 : index
  %dim0 = memref.dim %arg0, %c0 : memref<45xf32>
  %c = arith.constant 2.0 : f32
  affine.for %i0 = 0 to affine_map<()[s0, s1] -> (s0 - s1)> ()[%dim0, %limit] {
    %v0 = affine.load %arg0[%i0] : memref<45xf32>
    %v1 = arith.mulf %v0, %c : f32
    affine.store %v1, %arg0[%i0] : memref<45xf32>
  }
  return
}

// args: 47
func.func @tile_loop_with_non_unit_step(%arg0 : memref<50xf32>, %arg1 : index) {
  %c = arith.constant 3.0 : f32
  affine.for %i = 0 to %arg1 step 5 {
    %v = affine.load %arg0[%i] : memref<50xf32>
    %w = arith.addf %v, %c : f32
    affine.store %w, %arg0[%i] : memref<50xf32>
  }
  return
}

// args: 3 5
func.func @tile_size_larger_than_trip_count_symbolic_bound(%A: memref<12x12xi32>, %M: index, %N: index) {
  affine.for %i = affine_map<(d0) -> (d0)>(%M) to affine_map<(d0) -> (d0 + 2)>(%M) {
    affine.for %j = affine_map<(d0) -> (d0)>(%N) to affine_map<(d0) -> (d0 + 4)>(%N) {
      %s = arith.addi %i, %j : index
      %v = arith.index_cast %s : index to i32
      affine.store %v, %A[%i, %j] : memref<12x12xi32>
    }
  }
  return
}

func.func @trip_count_one(%arg0: memref<300x1xf32>, %arg1: memref<300x1xf32>) {
  affine.for %i1 = 0 to 300 {
    affine.for %i3 = 0 to 1 {
      %4 = affine.load %arg0[%i1, %i3] : memref<300x1xf32>
      affine.store %4, %arg1[%i1, %i3] : memref<300x1xf32>
    }
  }
  return
}

// args: 37 45
func.func @separate_full_tile_2d(%A: memref<40x50xi32>, %M : index, %N : index) {
  affine.for %i = 0 to %M {
    affine.for %j = 0 to %N {
      %s = arith.muli %i, %j : index
      %v = arith.index_cast %s : index to i32
      affine.store %v, %A[%i, %j] : memref<40x50xi32>
    }
  }
  return
}

// Not hyper-rectangular: MLIR does not tile; we tile the outer loop alone.
func.func @non_hyperrectangular_loop(%A: memref<128x128xi32>) {
  %N = arith.constant 128 : index
  affine.for %i = 0 to %N {
    affine.for %j = 0 to min #ub_min(%i)[%N] {
      %s = arith.subi %i, %j : index
      %v = arith.index_cast %s : index to i32
      affine.store %v, %A[%i, %j] : memref<128x128xi32>
    }
  }
  return
}

// Loops with iter_args are not tiled (by MLIR either).
func.func @yield_values(%A: memref<10xi32>) -> index {
  %init = arith.constant 0 : index
  %r = affine.for %i = 0 to 10 iter_args(%s = %init) -> index {
    %v = arith.index_cast %s : index to i32
    affine.store %v, %A[%i] : memref<10xi32>
    %n = arith.addi %s, %i : index
    affine.yield %n : index
  }
  return %r : index
}

// args: 2 4 33 41
func.func @separate_full_tile_1d_max_min(%A: memref<50xi32>, %M : index, %N : index, %P : index, %Q : index) {
  affine.for %i0 = max affine_map<(d0, d1) -> (d0, d1)>  (%M, %N) to min affine_map< (d0, d1) -> (d0, d1)> (%P, %Q) {
    %v = arith.index_cast %i0 : index to i32
    affine.store %v, %A[%i0] : memref<50xi32>
  }
  return
}
