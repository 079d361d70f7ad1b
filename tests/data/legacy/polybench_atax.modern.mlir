// polybench_atax.mlir modernized by hand.
module {
  memref.global "private" @polybench_t_start : memref<1xf64>
  func.func private @S0(memref<2100xf64>, index)
  func.func private @S1(memref<1900xf64>, index)
  func.func private @rtclock() -> f64
  func.func @init_array(%arg0: i32, %arg1: i32, %arg2: memref<1900x2100xf64>, %arg3: memref<2100xf64>) {
    %c0_i32 = arith.constant 0 : i32
    %c5_i32 = arith.constant 5 : i32
    %c1_i32 = arith.constant 1 : i32
    %0 = arith.sitofp %arg1 : i32 to f64
    cf.br ^bb1(%c0_i32 : i32)
  ^bb1(%1: i32):
    %2 = arith.cmpi slt, %1, %arg1 : i32
    %3 = arith.index_cast %1 : i32 to index
    cf.cond_br %2, ^bb2, ^bb3(%c0_i32 : i32)
  ^bb2:
    %4 = arith.sitofp %c1_i32 : i32 to f64
    %5 = arith.sitofp %1 : i32 to f64
    %6 = arith.divf %5, %0 : f64
    %7 = arith.addf %4, %6 : f64
    memref.store %7, %arg3[%3] : memref<2100xf64>
    %8 = arith.addi %1, %c1_i32 : i32
    cf.br ^bb1(%8 : i32)
  ^bb3(%9: i32):
    %10 = arith.cmpi slt, %9, %arg0 : i32
    %11 = arith.index_cast %9 : i32 to index
    cf.cond_br %10, ^bb5(%c0_i32 : i32), ^bb4
  ^bb4:
    return
  ^bb5(%12: i32):
    %15 = arith.remsi %12, %arg1 : i32
    %16 = arith.sitofp %15 : i32 to f64
    %17 = arith.muli %arg0, %c5_i32 : i32
    %18 = arith.sitofp %17 : i32 to f64
    %19 = arith.divf %16, %18 : f64
    memref.store %19, %arg2[%11, %11] : memref<1900x2100xf64>
    %20 = arith.addi %9, %c1_i32 : i32
    cf.br ^bb3(%20 : i32)
  }
  func.func @kernel_atax(%arg0: i32, %arg1: i32, %arg4: memref<2100xf64>, %arg5: memref<1900xf64>) {
    %c0 = arith.constant 0 : index
    %t = memref.get_global @polybench_t_start : memref<1xf64>
    %now = call @rtclock() : () -> f64
    memref.store %now, %t[%c0] : memref<1xf64>
    %0 = arith.index_cast %arg1 : i32 to index
    affine.for %arg6 = 0 to %0 {
      func.call @S0(%arg4, %arg6) : (memref<2100xf64>, index) -> ()
    }
    %1 = arith.index_cast %arg0 : i32 to index
    affine.for %arg6 = 0 to %1 {
      func.call @S1(%arg5, %arg6) : (memref<1900xf64>, index) -> ()
    }
    return
  }
}
