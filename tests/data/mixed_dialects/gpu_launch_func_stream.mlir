module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel_1(%arg0 : f32, %arg1 : memref<?xf32, 1>) kernel {
      gpu.return
    }
  }
  func.func @launch(%stream : !llvm.ptr, %x : f32, %m : memref<?xf32, 1>) {
    %c8 = arith.constant 8 : i64
    gpu.launch_func <%stream : !llvm.ptr> @kernels::@kernel_1 blocks in (%c8, %c8, %c8) threads in (%c8, %c8, %c8) : i64 args(%x : f32, %m : memref<?xf32, 1>)
    affine.for %i = 0 to 8 {
      %v = affine.load %m[%i] : memref<?xf32, 1>
    }
    return
  }
}
