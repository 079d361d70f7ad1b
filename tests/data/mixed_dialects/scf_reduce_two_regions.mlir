func.func @f(%n: index, %x: f32, %y: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%x, %y) -> (f32, i32) {
    scf.reduce(%x, %y : f32, i32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      scf.reduce.return %s : i32
    }
  }
  return
}
