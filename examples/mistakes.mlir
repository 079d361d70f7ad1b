// Two mistakes `affine-lsp check` reports: a loop IV used as a symbol, and
// an access out of bounds.
#shift = affine_map<(d0)[s0] -> (d0 + s0)>

func.func @mistakes(%a: memref<10xf32>, %n: index) {
  affine.for %i = 0 to 10 {
    %c = arith.constant 0.0 : f32
    // %i is a loop IV: it may be a dimension, but not a symbol.
    %s = affine.apply #shift(%i)[%i]
    // 10 + 1 is out of bounds for memref<10xf32>.
    affine.store %c, %a[%i + 1] : memref<10xf32>
  }
  return
}
