gpu.module @m {
  gpu.func @k() workgroup(%w: memref<4xf32, 3>) private(%p: memref<1xf32, 5>) kernel {
    %c0 = arith.constant 0 : index
    %v = memref.load %p[%c0] : memref<1xf32, 5>
    memref.store %v, %w[%c0] : memref<4xf32, 3>
    gpu.return
  }
}
