// The rest of the rewrite rules: renamed integer ops, the math functions,
// memref and tensor ops whose names changed, cf.assert.
func @more(%i: i32, %j: i32, %a: f32, %b: f32, %A: memref<10xf32>, %U: memref<*xf32>, %t: tensor<4xf32>, %S: memref<1xindex>) -> (i32, f32, index, index) {
  %0 = ceildivi_signed %i, %j : i32
  %1 = floordivi_signed %0, %j : i32
  %c = cmpi "ne", %1, %j : i32
  assert %c, "nonzero"
  %2 = exp2 %a : f32
  %3 = expm1 %2 : f32
  %4 = log2 %3 : f32
  %5 = log10 %4 : f32
  %6 = log1p %5 : f32
  %7 = atan %6 : f32
  %8 = atan2 %7, %b : f32
  %9 = powf %8, %b : f32
  %c0 = constant 0 : index
  prefetch %A[%c0], read, locality<3>, data : memref<10xf32>
  assume_alignment %A, 16 : memref<10xf32>
  %r = atomic_rmw "addf" %9, %A[%c0] : (f32, memref<10xf32>) -> f32
  %rs = memref_reshape %A(%S) : (memref<10xf32>, memref<1xindex>) -> memref<?xf32>
  %tc = tensor_cast %t : tensor<4xf32> to tensor<?xf32>
  %rk = rank %U : memref<*xf32>
  %tr = std.rank %tc : tensor<?xf32>
  return %1, %r, %rk, %tr : i32, f32, index, index
}
