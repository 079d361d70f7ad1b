func.func @f(%c: i1) {
  cf.cond_br %c weights([60, 40]), ^bb1, ^bb2
^bb1:
  return
^bb2:
  return
}
