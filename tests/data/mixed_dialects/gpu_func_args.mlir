gpu.module @m {
  gpu.func @k(%a: f32, %b: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %a, %b[%c0] : memref<4xf32>
    gpu.return
  }
}
