// SYNTAX TEST "source.mlir" "types"
func.func @types(%a: index, %b: i32, %c: f32, %d: i1, %e: f64, %f: bf16, %g: si8, %h: ui16, %k: f8E4M3FN) {
//                   ^^^^^ support.type.builtin.mlir
//                              ^^^ support.type.builtin.mlir
//                                       ^^^ support.type.builtin.mlir
//                                                ^^ support.type.builtin.mlir
//                                                        ^^^ support.type.builtin.mlir
//                                                                 ^^^^ support.type.builtin.mlir
//                                                                           ^^^ support.type.builtin.mlir
//                                                                                    ^^^^ support.type.builtin.mlir
//                                                                                              ^^^^^^^^ support.type.builtin.mlir
  return
}
%m = memref.alloc() : memref<10x?xf32>
//                    ^^^^^^ meta.type.shaped.mlir support.type.shaped.mlir
//                          ^ punctuation.definition.type.begin.mlir
//                           ^^ constant.numeric.dimension.mlir
//                             ^ punctuation.separator.dimension.mlir
//                              ^ constant.language.dynamic-size.mlir
//                               ^ punctuation.separator.dimension.mlir
//                                ^^^ meta.type.shaped.mlir support.type.builtin.mlir
//                                   ^ punctuation.definition.type.end.mlir
%v = vector.broadcast %s : f32 to vector<4x8xf32>
//                                ^^^^^^ support.type.shaped.mlir
//                                       ^ constant.numeric.dimension.mlir
//                                         ^ constant.numeric.dimension.mlir
//                                           ^^^ support.type.builtin.mlir
%t = tensor.empty() : tensor<2x3xindex>
//                    ^^^^^^ support.type.shaped.mlir
//                               ^^^^^ support.type.builtin.mlir
%u = "test.unranked"() : () -> tensor<*xi8>
//                                    ^ constant.language.unranked.mlir
//                                      ^^ support.type.builtin.mlir
%w = "test.nested"() : () -> memref<?xvector<[4]xf32>, 1>
//                                    ^^^^^^ meta.type.shaped.mlir meta.type.shaped.mlir support.type.shaped.mlir
//                                               ^^^ support.type.builtin.mlir
//                                                     ^ constant.numeric.integer.mlir
%z = "test.fn"() : () -> ((index, i64) -> f16)
//                         ^^^^^ support.type.builtin.mlir
//                                ^^^ support.type.builtin.mlir
//                                        ^^^ support.type.builtin.mlir
//                    ^^ keyword.operator.arrow.mlir
%i32 = arith.constant 0 : i32
// <---- variable.other.ssa.mlir
// <---- - support.type.builtin.mlir
