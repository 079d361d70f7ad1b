// EXPECT: fused
// MODE: sibling maximal
// NOTE: Sibling fusion of two nests reading an allocated and freed buffer: the buffer keeps its alloc and its dealloc.
func.func @sibling_freed(%in: memref<8xf32>, %x: memref<8xf32>, %y: memref<8xf32>) {
  %buf = memref.alloc() : memref<8xf32>
  affine.for %i = 0 to 8 {
    %v = affine.load %in[%i] : memref<8xf32>
    affine.store %v, %buf[%i] : memref<8xf32>
  }
  %c0 = arith.constant 0 : index
  %k = affine.load %buf[%c0] : memref<8xf32>
  affine.for %i = 0 to 8 {
    %v = affine.load %buf[%i] : memref<8xf32>
    %w = arith.addf %v, %k : f32
    affine.store %w, %x[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    %v = affine.load %buf[%i] : memref<8xf32>
    %w = arith.mulf %v, %k : f32
    affine.store %w, %y[%i] : memref<8xf32>
  }
  memref.dealloc %buf : memref<8xf32>
  return
}
