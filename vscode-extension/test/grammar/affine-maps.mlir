// SYNTAX TEST "source.mlir" "inline affine_map / affine_set, dims and symbols"
%a = affine.apply affine_map<(d0, d1)[s0] -> (d0 * 2 + d1 - s0)>(%i, %j)[%n]
//                ^^^^^^^^^^ storage.type.affine-map.mlir
//                          ^ meta.affine-map.mlir punctuation.definition.affine-map.begin.mlir
//                            ^^ meta.affine-map.mlir variable.parameter.dim.mlir
//                                ^^ variable.parameter.dim.mlir
//                                    ^^ variable.parameter.symbol.mlir
//                                        ^^ meta.affine-map.mlir keyword.operator.arrow.mlir
//                                            ^^ variable.parameter.dim.mlir
//                                               ^ keyword.operator.arithmetic.mlir
//                                                 ^ constant.numeric.integer.mlir
//                                                   ^ keyword.operator.arithmetic.mlir
//                                                        ^ keyword.operator.arithmetic.mlir
//                                                          ^^ variable.parameter.symbol.mlir
//                                                             ^ meta.affine-map.mlir punctuation.definition.affine-map.end.mlir
//                                                               ^^ variable.other.ssa.mlir
//                                                               ^^ - meta.affine-map.mlir
%b = affine.apply affine_map<(d0)[s0, s1] -> (d0 floordiv 4, d0 ceildiv s1, (d0 + s0) mod 8)>(%i)[%n, %m]
//                                               ^^^^^^^^ keyword.operator.affine.mlir
//                                                              ^^^^^^^ keyword.operator.affine.mlir
//                                                                                    ^^^ keyword.operator.affine.mlir
//                                                                      ^^ variable.parameter.symbol.mlir
affine.if affine_set<(d0)[s0] : (d0 - s0 >= 0, s0 - d0 - 1 >= 0, d0 == 3)>(%i)[%n] {
//        ^^^^^^^^^^ storage.type.affine-set.mlir
//                    ^^ meta.affine-set.mlir variable.parameter.dim.mlir
//                        ^^ meta.affine-set.mlir variable.parameter.symbol.mlir
//                            ^ punctuation.separator.constraints.mlir
//                                       ^^ keyword.operator.comparison.mlir
//                                                                  ^^ keyword.operator.comparison.mlir
//                                                                       ^ meta.affine-set.mlir punctuation.definition.affine-set.end.mlir
//                                                                         ^^ - meta.affine-set.mlir
}
%c = affine.min affine_map<(i, j) -> (i, j)>(%x, %y)
//                          ^ variable.parameter.mlir
//                             ^ variable.parameter.mlir
%m = memref.alloc() : memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>
//                                    ^^^^^^^^^^ meta.type.shaped.mlir meta.affine-map.mlir storage.type.affine-map.mlir
//                                                            ^^ variable.parameter.dim.mlir
//                                                                   ^^ meta.type.shaped.mlir
%d0 = arith.constant 0 : index
// <--- variable.other.ssa.mlir
// <--- - variable.parameter.dim.mlir
d0
// <-- - variable.parameter.dim.mlir
