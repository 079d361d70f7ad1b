gpu.module @m {
  gpu.func @k(%a: f32) -> f32 {
    gpu.return %a : f32
  }
}
