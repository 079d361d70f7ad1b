// PolyBench 4.2 mvt: x1 += A*y1; x2 += A'*y2, in PolyBench's loop order. N=4000 (EXTRALARGE).
func.func @kernel(%x1: memref<4000xf64>, %x2: memref<4000xf64>, %y1: memref<4000xf64>, %y2: memref<4000xf64>, %A: memref<4000x4000xf64>) {
  affine.for %i = 0 to 4000 {
    affine.for %j = 0 to 4000 {
      %x = affine.load %x1[%i] : memref<4000xf64>
      %a = affine.load %A[%i, %j] : memref<4000x4000xf64>
      %y = affine.load %y1[%j] : memref<4000xf64>
      %p = arith.mulf %a, %y : f64
      %s = arith.addf %x, %p : f64
      affine.store %s, %x1[%i] : memref<4000xf64>
    }
  }
  affine.for %i = 0 to 4000 {
    affine.for %j = 0 to 4000 {
      %x = affine.load %x2[%i] : memref<4000xf64>
      %a = affine.load %A[%j, %i] : memref<4000x4000xf64>
      %y = affine.load %y2[%j] : memref<4000xf64>
      %p = arith.mulf %a, %y : f64
      %s = arith.addf %x, %p : f64
      affine.store %s, %x2[%i] : memref<4000xf64>
    }
  }
  return
}
