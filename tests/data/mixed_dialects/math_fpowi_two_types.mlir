func.func @f(%b: f32, %p: i32) -> f32 {
  %0 = math.fpowi %b, %p : f32, i32
  return %0 : f32
}
