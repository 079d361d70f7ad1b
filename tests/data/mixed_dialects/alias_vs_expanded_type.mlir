#tile = affine_map<(i) -> (i floordiv 4, i mod 4)>
func.func @f() -> memref<8xf32, #tile> {
  %a = memref.alloc() : memref<8xf32, #tile>
  return %a : memref<8xf32, #tile>
}
