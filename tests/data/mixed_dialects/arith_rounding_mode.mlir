func.func @f(%x: f32) -> bf16 {
  %0 = arith.truncf %x to_nearest_even : f32 to bf16
  return %0 : bf16
}
