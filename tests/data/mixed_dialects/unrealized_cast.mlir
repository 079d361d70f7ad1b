func.func @f(%a: i64) -> index {
  %0 = builtin.unrealized_conversion_cast %a : i64 to index
  return %0 : index
}
