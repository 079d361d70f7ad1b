// Loop-invariant code in the 2020 syntax (modelled on the LLVM
// loop-invariant-code-motion test of that time).
func @nested_loops_both_having_invariant_code() {
  %m = alloc() : memref<10xf32>
  %cf7 = constant 7.0 : f32
  %cf8 = constant 8.0 : f32

  affine.for %arg0 = 0 to 10 {
    %v0 = addf %cf7, %cf8 : f32
    affine.for %arg1 = 0 to 10 {
      %v1 = addf %v0, %cf8 : f32
      affine.store %v0, %m[%arg0] : memref<10xf32>
    }
  }
  return
}

// -----

func @invariant_affine_if(%N: index) {
  %m = alloc() : memref<10xf32>
  %cf8 = constant 8.0 : f32
  affine.for %arg0 = 0 to 10 {
    affine.for %arg1 = 0 to 10 {
      affine.if (d0, d1) : (d1 - d0 >= 0) (%arg0, %arg0) {
        %cf9 = addf %cf8, %cf8 : f32
        affine.store %cf9, %m[%arg0] : memref<10xf32>
      }
    }
  }
  dealloc %m : memref<10xf32>
  return
}

// -----

// The `loop` dialect of 2020 (renamed scf).
func @invariant_loop_dialect(%c: i1) -> f32 {
  %ci0 = constant 0 : index
  %ci10 = constant 10 : index
  %ci1 = constant 1 : index
  %cf7 = constant 7.0 : f32
  %cf8 = constant 8.0 : f32
  loop.for %arg0 = %ci0 to %ci10 step %ci1 {
    loop.for %arg1 = %ci0 to %ci10 step %ci1 {
      %v0 = addf %cf7, %cf8 : f32
    }
  }
  loop.parallel (%i) = (%ci0) to (%ci10) step (%ci1) {
    %v1 = addf %cf7, %cf7 : f32
  }
  %r = loop.if %c -> (f32) {
    loop.yield %cf7 : f32
  } else {
    loop.yield %cf8 : f32
  }
  return %r : f32
}
