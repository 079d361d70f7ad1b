// SYNTAX TEST "source.mlir" "SSA values, block labels and symbol references"
%0 = arith.constant 1 : i32
// <-- variable.other.ssa.mlir
%name = arith.addi %0, %0 : i32
// <----- variable.other.ssa.mlir
//                 ^^ variable.other.ssa.mlir
//                     ^^ variable.other.ssa.mlir
%x:2 = "test.pair"() : () -> (i32, i32)
// <-- variable.other.ssa.mlir
//^ punctuation.separator.result-count.mlir
// ^ constant.numeric.result-count.mlir
%y = arith.addi %x#0, %x#1 : i32
//              ^^ variable.other.ssa.mlir
//                ^ punctuation.separator.result-number.mlir
//                 ^ constant.numeric.result-number.mlir
//                    ^^ variable.other.ssa.mlir
//                       ^ constant.numeric.result-number.mlir
%arg_0.x$y = arith.constant 2 : index
// <---------- variable.other.ssa.mlir
^bb0(%arg0: index, %arg1: f32):
// <---- entity.name.label.mlir
//   ^^^^^ variable.other.ssa.mlir
//        ^ punctuation.separator.type.mlir
//        ^ - punctuation.separator.result-count.mlir
//                 ^^^^^ variable.other.ssa.mlir
  cf.br ^bb1(%arg0 : index)
//      ^^^^ entity.name.label.mlir
^exit:
// <----- entity.name.label.mlir
func.func @affine.f(%A: memref<?xf32>) -> f32 {
//        ^^^^^^^^^ entity.name.function.symbol.mlir
//        ^^^^^^^^^ - keyword.control.affine.mlir
  %r = func.call @callee(%A) : (memref<?xf32>) -> f32
//               ^^^^^^^ entity.name.function.symbol.mlir
  %g = memref.get_global @"quoted name" : memref<4xf32>
//                       ^^^^^^^^^^^^^^ entity.name.function.symbol.mlir
  %h = func.constant @outer::@inner : () -> ()
//                   ^^^^^^^^^^^^^^ entity.name.function.symbol.mlir
}
