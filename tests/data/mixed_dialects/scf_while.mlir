func.func @f(%x: i32, %c: i1) -> i32 {
  %r = scf.while (%a = %x) : (i32) -> i32 {
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }
  return %r : i32
}
