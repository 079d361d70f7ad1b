func.func @f(%src: memref<16xf32>, %dst: memref<16xf32, 1>, %tag: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  affine.dma_start %src[%c0], %dst[%c0], %tag[%c0], %c4, : memref<16xf32>, memref<16xf32, 1>, memref<1xi32>
  affine.dma_wait %tag[%c0], %c4 : memref<1xi32>
  return
}
