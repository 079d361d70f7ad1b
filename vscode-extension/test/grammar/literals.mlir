// SYNTAX TEST "source.mlir" "numbers, strings, constants"
%c = arith.constant 42 : i32
//                  ^^ constant.numeric.integer.mlir
%n = arith.constant -7 : index
//                  ^^ constant.numeric.integer.mlir
%f = arith.constant 1.5 : f32
//                  ^^^ constant.numeric.float.mlir
%e = arith.constant -2.5e-3 : f64
//                  ^^^^^^^ constant.numeric.float.mlir
%h = arith.constant 0x7FC00000 : f32
//                  ^^^^^^^^^^ constant.numeric.integer.hexadecimal.mlir
%t = arith.constant true
//                  ^^^^ constant.language.boolean.mlir
%d = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
//                  ^^^^^ support.type.attribute.mlir
//                         ^^^ meta.attribute.builtin.mlir constant.numeric.float.mlir
"test.op"() {msg = "a \"quoted\" string\n", empty = ""} : () -> ()
//                 ^^ string.quoted.double.mlir
//                    ^^ constant.character.escape.mlir
//                                     ^^ constant.character.escape.mlir
//                                                  ^^ string.quoted.double.mlir
%x = arith.addi %a1, %a2 : i32
//                ^ - constant.numeric.integer.mlir
