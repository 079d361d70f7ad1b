// A PolyBench kernel as Polygeist printed it before 2022 (modelled on its
// atax output): CFG loops in std, index_cast/sitofp, calls in affine loops.
module {
  global_memref "private" @polybench_t_start : memref<1xf64>
  func private @S0(memref<2100xf64>, index)
  func private @S1(memref<1900xf64>, index)
  func private @rtclock() -> f64
  func @init_array(%arg0: i32, %arg1: i32, %arg2: memref<1900x2100xf64>, %arg3: memref<2100xf64>) {
    %c0_i32 = constant 0 : i32
    %c5_i32 = constant 5 : i32
    %c1_i32 = constant 1 : i32
    %0 = sitofp %arg1 : i32 to f64
    br ^bb1(%c0_i32 : i32)
  ^bb1(%1: i32):  // 2 preds: ^bb0, ^bb2
    %2 = cmpi "slt", %1, %arg1 : i32
    %3 = index_cast %1 : i32 to index
    cond_br %2, ^bb2, ^bb3(%c0_i32 : i32)
  ^bb2:  // pred: ^bb1
    %4 = sitofp %c1_i32 : i32 to f64
    %5 = sitofp %1 : i32 to f64
    %6 = divf %5, %0 : f64
    %7 = addf %4, %6 : f64
    store %7, %arg3[%3] : memref<2100xf64>
    %8 = addi %1, %c1_i32 : i32
    br ^bb1(%8 : i32)
  ^bb3(%9: i32):  // 2 preds: ^bb1, ^bb5
    %10 = cmpi "slt", %9, %arg0 : i32
    %11 = index_cast %9 : i32 to index
    cond_br %10, ^bb5(%c0_i32 : i32), ^bb4
  ^bb4:  // pred: ^bb3
    return
  ^bb5(%12: i32):  // pred: ^bb3
    %15 = remi_signed %12, %arg1 : i32
    %16 = sitofp %15 : i32 to f64
    %17 = muli %arg0, %c5_i32 : i32
    %18 = sitofp %17 : i32 to f64
    %19 = divf %16, %18 : f64
    store %19, %arg2[%11, %11] : memref<1900x2100xf64>
    %20 = addi %9, %c1_i32 : i32
    br ^bb3(%20 : i32)
  }
  func @kernel_atax(%arg0: i32, %arg1: i32, %arg4: memref<2100xf64>, %arg5: memref<1900xf64>) {
    %c0 = constant 0 : index
    %t = get_global_memref @polybench_t_start : memref<1xf64>
    %now = call @rtclock() : () -> f64
    store %now, %t[%c0] : memref<1xf64>
    %0 = index_cast %arg1 : i32 to index
    affine.for %arg6 = 0 to %0 {
      call @S0(%arg4, %arg6) : (memref<2100xf64>, index) -> ()
    }
    %1 = index_cast %arg0 : i32 to index
    affine.for %arg6 = 0 to %1 {
      call @S1(%arg5, %arg6) : (memref<1900xf64>, index) -> ()
    }
    return
  }
}
