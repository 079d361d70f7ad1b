// SYNTAX TEST "source.mlir" "attribute and type aliases"
#map = affine_map<(d0) -> (d0 + 1)>
// <---- variable.other.constant.attribute-alias.definition.mlir
//   ^ keyword.operator.assignment.mlir
#map1 = affine_map<(d0)[s0] -> (d0 floordiv s0)>
// <----- variable.other.constant.attribute-alias.definition.mlir
#set0 = affine_set<(d0) : (d0 >= 0)>
// <----- variable.other.constant.attribute-alias.definition.mlir
#map_id1 = affine_map<(d0) -> (d0)>
// <-------- variable.other.constant.attribute-alias.definition.mlir
!memref_t = memref<4x4xf32>
// <--------- entity.name.type.alias.definition.mlir
!T = i32
// <-- entity.name.type.alias.definition.mlir
func.func @f(%A: !memref_t, %n: index) {
//               ^^^^^^^^^ entity.name.type.alias.mlir
//               ^^^^^^^^^ - entity.name.type.alias.definition.mlir
  affine.for %i = 0 to #map(%n) {
//                     ^^^^ variable.other.constant.attribute-alias.mlir
//                     ^^^^ - variable.other.constant.attribute-alias.definition.mlir
    %a = affine.apply #map1(%i)[%n]
//                    ^^^^^ variable.other.constant.attribute-alias.mlir
    affine.if #set0(%i) {
//            ^^^^^ variable.other.constant.attribute-alias.mlir
    }
  }
  %p = "test.ptr"() : () -> !llvm.ptr
//                          ^^^^^^^^^ support.type.dialect.mlir
  %q = "test.opaque"() {space = #gpu.address_space<workgroup>} : () -> !T
//                              ^^^^^^^^^^^^^^^^^^ support.constant.attribute.dialect.mlir
//                                                                     ^^ entity.name.type.alias.mlir
  return
}
