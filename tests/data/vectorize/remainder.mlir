// Kernels for the remainder loops and the masks of the vectorizer (run like
// kernels.mlir: a generated @main fills the memrefs, takes the `// args:`
// values, prints every memref and result).

// A tiled loop: the point loop's upper bound is a min of two expressions, so
// no remainder loop can be written and the transfers are masked.
func.func @tiled_min(%A: memref<40xf32>, %B: memref<40xf32>) {
  affine.for %ii = 0 to 37 step 16 {
    affine.for %i = affine_map<(d0) -> (d0)>(%ii) to min affine_map<(d0) -> (d0 + 16, 37)>(%ii) {
      %a = affine.load %A[%i] : memref<40xf32>
      %b = arith.mulf %a, %a : f32
      affine.store %b, %B[%i] : memref<40xf32>
    }
  }
  return
}

// Symbolic bounds: a vector loop up to the last whole vector, then the scalar
// remainder; the second loop runs no iteration (upper bound below the lower
// one), nor may its remainder.
// args: 3 30
func.func @symbolic_bounds(%A: memref<40xf32>, %B: memref<40xf32>, %lo: index, %n: index) -> f32 {
  %z = arith.constant 0.0 : f32
  %r = affine.for %i = %lo to %n iter_args(%acc = %z) -> (f32) {
    %a = affine.load %A[%i] : memref<40xf32>
    %b = arith.addf %acc, %a : f32
    affine.yield %b : f32
  }
  affine.for %i = %lo to %n {
    %a = affine.load %A[%i] : memref<40xf32>
    %c = arith.mulf %a, %a : f32
    affine.store %c, %B[%i] : memref<40xf32>
  }
  affine.for %i = %n to %lo {
    %a = affine.load %A[%i] : memref<40xf32>
    affine.store %a, %B[%i] : memref<40xf32>
  }
  return %r : f32
}
