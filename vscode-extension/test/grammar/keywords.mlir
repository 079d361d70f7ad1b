// SYNTAX TEST "source.mlir" "affine keywords"
affine.for %i = 0 to 128 step 4 {
//                ^^ keyword.other.affine.mlir
//                       ^^^^ keyword.other.affine.mlir
}
affine.for %i = max #lb(%a)[%n] to min #ub(%b)[%n] {
//              ^^^ keyword.other.affine.mlir
//                                 ^^^ keyword.other.affine.mlir
//                              ^^ keyword.other.affine.mlir
}
%sum = affine.for %i = 0 to 10 iter_args(%acc = %zero) -> (f32) {
//                             ^^^^^^^^^ keyword.other.affine.mlir
//                                                     ^^ keyword.operator.arrow.mlir
}
%r:2 = affine.parallel (%i, %j) = (0, 0) to (10, 10) step (2, 2) reduce ("addf", "maxnumf") -> (f32, f32) {
//                                       ^^ keyword.other.affine.mlir
//                                                   ^^^^ keyword.other.affine.mlir
//                                                               ^^^^^^ keyword.other.affine.mlir
//                                                                       ^^^^^^ string.quoted.double.mlir
//                                                                               ^^^^^^^^^ string.quoted.double.mlir
}
%v = affine.load %A[%i floordiv 2, %j ceildiv 4, %k mod 8, symbol(%n)] : memref<?x?x?x?xf32>
//                     ^^^^^^^^ keyword.operator.affine.mlir
//                                    ^^^^^^^ keyword.operator.affine.mlir
//                                                  ^^^ keyword.operator.affine.mlir
//                                                         ^^^^^^ keyword.other.affine.mlir
%idx:2 = affine.delinearize_index %lin into (16, 8) : index, index
//                                     ^^^^ keyword.other.affine.mlir
%t = tensor.cast %x : tensor<4xf32> to tensor<?xf32>
//                                  ^^ keyword.other.affine.mlir
%stop = arith.constant 1 : index
// <----- - keyword.other.affine.mlir
%maxv = arith.maxnumf %a, %b : f32
// <~---- - keyword.other.affine.mlir
//            ^^^^^^^ - keyword.other.affine.mlir
