// SYNTAX TEST "source.mlir" "comments and the split marker"
// RUN: mlir-opt %s -split-input-file | FileCheck %s
// ^^^ comment.line.double-slash.mlir keyword.other.filecheck.mlir
//               ^^ comment.line.double-slash.mlir
//               ^^ - variable.other.ssa.mlir
// A plain comment with affine.for and %x inside
//                      ^^^^^^^^^^ comment.line.double-slash.mlir
//                      ^^^^^^^^^^ - keyword.control.affine.mlir
//                                     ^^ - variable.other.ssa.mlir
// CHECK-LABEL: func @f
// ^^^^^^^^^^^ keyword.other.filecheck.mlir
// CHECK-NEXT: affine.for
// ^^^^^^^^^^ keyword.other.filecheck.mlir
// GENERIC-DAG: "affine.yield"
// ^^^^^^^^^^^ keyword.other.filecheck.mlir
%0 = arith.constant 0 : index // trailing comment
//                            ^^ comment.line.double-slash.mlir punctuation.definition.comment.mlir
//                               ^^^^^^^^ comment.line.double-slash.mlir
//                      ^^^^^ - comment.line.double-slash.mlir
// expected-error @+1 {{custom op 'affine.for' expected}}
// ^^^^^^^^^^^^^^ keyword.other.expected-diagnostic.mlir

// -----
// <-- meta.separator.split.mlir punctuation.definition.comment.mlir
// ^^^^^ meta.separator.split.mlir punctuation.separator.split.mlir

  // -----
//   ^^^^^ meta.separator.split.mlir
// ----- not a marker
// ^^^^^ - meta.separator.split.mlir
// ^^^^^ comment.line.double-slash.mlir
func.func @after_split() {
// <--------- support.function.op.mlir
  return
}
