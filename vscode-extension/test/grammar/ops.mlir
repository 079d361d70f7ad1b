// SYNTAX TEST "source.mlir" "operation names"
affine.for %i = 0 to 10 {
// <---------- keyword.control.affine.mlir
  affine.if #set(%i) {
//^^^^^^^^^ keyword.control.affine.mlir
    %r = affine.parallel (%j) = (0) to (8) {
//       ^^^^^^^^^^^^^^^ keyword.control.affine.mlir
    affine.yield
//  ^^^^^^^^^^^^ keyword.control.affine.mlir
  } else {
//  ^^^^ keyword.control.else.mlir
  }
}
%v = affine.load %A[%i] : memref<8xf32>
//   ^^^^^^^^^^^ support.function.op.affine.mlir
affine.store %v, %A[%i] : memref<8xf32>
// <------------ support.function.op.affine.mlir
%a = affine.apply #map(%i)
//   ^^^^^^^^^^^^ support.function.op.affine.mlir
%m = affine.min #map(%i)
//   ^^^^^^^^^^ support.function.op.affine.mlir
//          ^^^ - keyword.other.affine.mlir
%n = affine.max #map(%i)
//   ^^^^^^^^^^ support.function.op.affine.mlir
//          ^^^ - keyword.other.affine.mlir
%w = affine.vector_load %A[%i] : memref<8xf32>, vector<4xf32>
//   ^^^^^^^^^^^^^^^^^^ support.function.op.affine.mlir
%s = arith.addf %x, %y : f32
//   ^^^^^^^^^^ support.function.op.mlir
//   ^^^^^^^^^^ - keyword.control.affine.mlir
%c0 = arith.constant 0 : index
//    ^^^^^^^^^^^^^^ support.function.op.mlir
func.func @f() {
// <--------- support.function.op.mlir
  func.call @g() : () -> ()
//^^^^^^^^^ support.function.op.mlir
  return
//^^^^^^ keyword.control.return.mlir
}
module {
// <------ support.function.op.builtin.mlir
}
"generic.op"() : () -> ()
// <------------ support.function.op.generic.mlir
// <- punctuation.definition.op.begin.mlir
//         ^ punctuation.definition.op.end.mlir
  "affine.for"() ({
//^^^^^^^^^^^^ support.function.op.generic.mlir
  "affine.yield"() : () -> ()
// ^^^^^^^^^^^^ support.function.op.generic.mlir
%x:2 = "test.two"() {name = "not.an.op"} : () -> (i32, i32)
//     ^^^^^^^^^^ support.function.op.generic.mlir
//                          ^^^^^^^^^^^ string.quoted.double.mlir
//                          ^^^^^^^^^^^ - support.function.op.generic.mlir
