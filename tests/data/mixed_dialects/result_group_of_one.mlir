func.func @f(%n: index, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:1 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (f32) {
    scf.yield %a : f32
  }
  return %r#0 : f32
}
