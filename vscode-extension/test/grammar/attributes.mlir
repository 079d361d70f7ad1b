// SYNTAX TEST "source.mlir" "attribute dictionaries"
affine.for %i = 0 to 10 {
} {some_attr = true}
//^ meta.attribute-dict.mlir punctuation.definition.attribute-dict.begin.mlir
// ^^^^^^^^^ meta.attribute-dict.mlir entity.other.attribute-name.mlir
//           ^ keyword.operator.assignment.mlir
//             ^^^^ constant.language.boolean.mlir
//                 ^ meta.attribute-dict.mlir punctuation.definition.attribute-dict.end.mlir
%0 = "test.op"() {lower_bound = #map, step = 1 : index, "quoted key" = [1, 2], unit_attr} : () -> i32
//                ^^^^^^^^^^^ entity.other.attribute-name.mlir
//                              ^^^^ meta.attribute-dict.mlir variable.other.constant.attribute-alias.mlir
//                                    ^^^^ entity.other.attribute-name.mlir
//                                    ^^^^ - keyword.other.affine.mlir
//                                               ^^^^^ support.type.builtin.mlir
//                                                      ^^^^^^^^^^^^ entity.other.attribute-name.mlir
//                                                                             ^^^^^^^^^ entity.other.attribute-name.mlir
//                                                                                                ^^^ - meta.attribute-dict.mlir
func.func @f() attributes {llvm.emit_c_interface, nested = {inner = 3 : i64}} {
//             ^^^^^^^^^^ keyword.other.mlir
//                         ^^^^^^^^^^^^^^^^^^^^^ entity.other.attribute-name.mlir
//                         ^^^^^^^^^^^^^^^^^^^^^ - support.function.op.mlir
//                                                          ^^^^^ meta.attribute-dict.mlir meta.attribute-dict.mlir entity.other.attribute-name.mlir
  affine.for %j = 0 to 4 { affine.yield }
//                       ^ - meta.attribute-dict.mlir
//                         ^^^^^^^^^^^^ keyword.control.affine.mlir
  return
}
