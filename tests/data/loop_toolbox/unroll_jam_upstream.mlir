// Inputs transcribed from the cases of MLIR's
// mlir/test/Dialect/Affine/unroll-jam.mlir (one section per upstream
// function, same name, same loop structure; the upstream file is not
// copied). The unregistered ops there ("addi32", "foo", "bar") have unknown
// memory effects, so unroll-and-jam could not be proven legal around them:
// here they are arith ops and loads/stores with the same operands, so
// that the structure the upstream test exercises is what is tested.
// tests/test_loop_toolbox_corpus.py runs the real -affine-loop-unroll-jam
// on each and checks that we unroll-and-jam wherever it does.

func.func @unroll_jam_imperfect_nest(%O: memref<101xi32>) {
  affine.for %i = 0 to 101 {
    %ii = arith.index_cast %i : index to i32
    %x = arith.addi %ii, %ii : i32
    affine.for %j = 0 to 17 {
      %y = arith.addi %ii, %ii : i32
      %z = arith.addi %y, %y : i32
    }
    %w = arith.addi %ii, %x : i32
    affine.store %w, %O[%i] : memref<101xi32>
  }
  return
}

// -----

func.func @loop_nest_unknown_count_1(%N : index, %O: memref<?x100xi32>) {
  %c = arith.constant 1 : i32
  affine.for %i = 1 to %N {
    affine.for %j = 1 to 100 {
      affine.store %c, %O[%i, %j] : memref<?x100xi32>
    }
  }
  return
}

// -----

func.func @loop_nest_unknown_count_2(%N : index, %O: memref<?xi32>) {
  affine.for %i = %N to affine_map<()[s0] -> (s0+9)> ()[%N] {
    affine.for %j = 1 to 100 {
      %ii = arith.index_cast %i : index to i32
      affine.store %ii, %O[%i] : memref<?xi32>
    }
  }
  return
}

// -----

func.func @loop_nest_symbolic_and_min_upper_bound(%M : index, %N : index, %K : index, %O: memref<?x?xindex>) {
  affine.for %i = 0 to min affine_map<()[s0, s1] -> (s0, s1, 1024)>()[%M, %N] {
    affine.for %j = 0 to %K {
      affine.store %j, %O[%i, %j] : memref<?x?xindex>
    }
  }
  return
}

// -----

func.func @no_unroll_jam_dependent_ubound(%in0: memref<?xf32, 1>) {
  affine.for %i = 0 to 100 {
    affine.for %k = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      %y = arith.addi %k, %k : index
    }
  }
  return
}

// -----

func.func @unroll_jam_one_iter_arg_preserves_attrs(%O: memref<101xi32>) {
  affine.for %i = 0 to 101 {
    %cst = arith.constant 1 : i32
    %ii = arith.index_cast %i : index to i32
    %x = arith.addi %ii, %ii : i32
    %red = affine.for %j = 0 to 17 iter_args(%acc = %cst) -> (i32) {
      %jj = arith.index_cast %j : index to i32
      %y0 = arith.addi %ii, %jj : i32
      %y = arith.addi %y0, %acc : i32
      affine.yield %y : i32
    } {test.keep = "inner"}
    %w0 = arith.addi %x, %red : i32
    affine.store %w0, %O[%i] : memref<101xi32>
  }
  return
}

// -----

func.func @unroll_jam_iter_args(%O: memref<101xi32>) {
  affine.for %i = 0 to 101 {
    %cst = arith.constant 0 : i32
    %cst1 = arith.constant 1 : i32
    %ii = arith.index_cast %i : index to i32
    %x = arith.addi %ii, %ii : i32
    %red:2 = affine.for %j = 0 to 17 iter_args(%acc = %cst, %acc1 = %cst1) -> (i32, i32) {
      %jj = arith.index_cast %j : index to i32
      %y = arith.addi %jj, %acc : i32
      %z = arith.muli %jj, %acc1 : i32
      affine.yield %y, %z : i32, i32
    }
    %w0 = arith.addi %x, %red#0 : i32
    %w = arith.addi %w0, %red#1 : i32
    affine.store %w, %O[%i] : memref<101xi32>
  }
  return
}

// -----

func.func @unroll_jam_iter_args_func_arg(%in: i32, %O: memref<101xi32>) {
  affine.for %i = 0 to 101 {
    %ii = arith.index_cast %i : index to i32
    %x = arith.addi %ii, %ii : i32
    %red = affine.for %j = 0 to 17 iter_args(%acc = %in) -> (i32) {
      %y = arith.addi %ii, %acc : i32
      affine.yield %y : i32
    }
    %w = arith.addi %x, %red : i32
    affine.store %w, %O[%i] : memref<101xi32>
  }
  return
}

// -----

func.func @unroll_jam_iter_args_nested(%O: memref<101xi32>) {
  affine.for %i = 0 to 101 {
    %cst = arith.constant 1 : i32
    %ii = arith.index_cast %i : index to i32
    %x = arith.addi %ii, %ii : i32
    %red = affine.for %j = 0 to 17 iter_args(%acc = %cst) -> (i32) {
      %red1 = affine.for %k = 0 to 35 iter_args(%acc1 = %acc) -> (i32) {
        %kk = arith.index_cast %k : index to i32
        %y0 = arith.addi %ii, %kk : i32
        %y = arith.addi %y0, %acc1 : i32
        affine.yield %y : i32
      }
      affine.yield %red1 : i32
    }
    %w = arith.addi %x, %red : i32
    affine.store %w, %O[%i] : memref<101xi32>
  }
  return
}
