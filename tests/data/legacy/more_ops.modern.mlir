// more_ops.mlir modernized by hand.
func.func @more(%i: i32, %j: i32, %a: f32, %b: f32, %A: memref<10xf32>, %U: memref<*xf32>, %t: tensor<4xf32>, %S: memref<1xindex>) -> (i32, f32, index, index) {
  %0 = arith.ceildivsi %i, %j : i32
  %1 = arith.floordivsi %0, %j : i32
  %c = arith.cmpi ne, %1, %j : i32
  cf.assert %c, "nonzero"
  %2 = math.exp2 %a : f32
  %3 = math.expm1 %2 : f32
  %4 = math.log2 %3 : f32
  %5 = math.log10 %4 : f32
  %6 = math.log1p %5 : f32
  %7 = math.atan %6 : f32
  %8 = math.atan2 %7, %b : f32
  %9 = math.powf %8, %b : f32
  %c0 = arith.constant 0 : index
  memref.prefetch %A[%c0], read, locality<3>, data : memref<10xf32>
  memref.assume_alignment %A, 16 : memref<10xf32>
  %r = memref.atomic_rmw addf %9, %A[%c0] : (f32, memref<10xf32>) -> f32
  %rs = memref.reshape %A(%S) : (memref<10xf32>, memref<1xindex>) -> memref<?xf32>
  %tc = tensor.cast %t : tensor<4xf32> to tensor<?xf32>
  %rk = memref.rank %U : memref<*xf32>
  %tr = tensor.rank %tc : tensor<?xf32>
  return %1, %r, %rk, %tr : i32, f32, index, index
}
