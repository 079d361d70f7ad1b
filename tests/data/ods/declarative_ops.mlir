// Upstream ops that affine-lsp's grammars do not know, written in their ODS
// declarative custom form (tests/test_ods_formats.py): each is checked against
// mlir-opt -mlir-print-op-generic (operands, results and their types, attribute names).
func.func @index_ops(%a: index, %b: index, %i: i64) -> index {
  %0 = index.add %a, %b
  %1 = index.sub %0, %b
  %2 = index.mul %1, %a
  %3 = index.ceildivu %2, %b
  %4 = index.ceildivs %3, %b
  %5 = index.floordivs %4, %a
  %6 = index.divu %5, %a
  %7 = index.remu %6, %a
  %8 = index.maxs %7, %a
  %9 = index.minu %8, %b
  %10 = index.shl %9, %a
  %11 = index.and %10, %a
  %12 = index.xor %11, %b
  %c = index.cmp slt(%12, %b)
  %k = index.constant 42
  %t = index.bool.constant true
  %s = index.sizeof
  %c1 = index.casts %i : i64 to index
  %c2 = index.castu %c1 : index to i32
  return %k : index
}

func.func @tensor_ops(%t: tensor<4x?xf32>, %u: tensor<8x2xf32>, %x: f32, %n: index, %idx: tensor<2x1xindex>) -> index {
  %r = tensor.rank %t : tensor<4x?xf32>
  %s = tensor.splat %x : tensor<4x4xf32>
  %d = tensor.splat %x[%n] : tensor<?x4xf32>
  %c = tensor.concat dim(0) %u, %u : (tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<16x2xf32>
  %g = tensor.gather %u[%idx] gather_dims([0]) unique : (tensor<8x2xf32>, tensor<2x1xindex>) -> tensor<2x2xf32>
  %e = tensor.from_elements %x, %x : tensor<2xf32>
  %b = tensor.bitcast %u : tensor<8x2xf32> to tensor<8x2xi32>
  %ca = tensor.cast %t : tensor<4x?xf32> to tensor<?x?xf32>
  return %r : index
}

func.func @complex_ops(%a: complex<f32>, %b: complex<f32>, %re: f32) -> f32 {
  %0 = complex.add %a, %b : complex<f32>
  %1 = complex.mul %0, %b : complex<f32>
  %2 = complex.div %1, %a : complex<f32>
  %3 = complex.exp %2 : complex<f32>
  %4 = complex.neg %3 : complex<f32>
  %5 = complex.re %4 : complex<f32>
  %6 = complex.im %4 : complex<f32>
  %7 = complex.abs %4 : complex<f32>
  %8 = complex.create %re, %6 : complex<f32>
  %9 = complex.eq %8, %a : complex<f32>
  %10 = complex.conj %8 : complex<f32>
  %11 = complex.constant [1.0 : f32, 2.0 : f32] : complex<f32>
  return %7 : f32
}

func.func @tosa_ops(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<1x4x8xf32>, %d: tensor<1x8x3xf32>) -> tensor<4x8xf32> {
  %0 = tosa.add %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.sub %0, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = tosa.maximum %1, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = tosa.abs %2 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = tosa.exp %3 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = tosa.tanh %4 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %6 = tosa.clamp %5 {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %7 = tosa.reduce_sum %6 {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %8 = tosa.const_shape {values = dense<[8, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %9 = tosa.reshape %6, %8 : (tensor<4x8xf32>, !tosa.shape<2>) -> tensor<8x4xf32>
  %10 = tosa.transpose %6 {perms = array<i32: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %11 = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %12 = tosa.matmul %c, %d, %11, %11 : (tensor<1x4x8xf32>, tensor<1x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32>
  return %6 : tensor<4x8xf32>
}

func.func @memref_and_async(%m: memref<8xf32>, %x: f32) {
  %a = memref.assume_alignment %m, 16 : memref<8xf32>
  %r = memref.rank %m : memref<8xf32>
  %t, %v = async.execute -> !async.value<f32> {
    async.yield %x : f32
  }
  %w = async.await %v : !async.value<f32>
  async.await %t : !async.token
  %g = async.create_group %r : !async.group
  return
}

func.func @linalg_named(%a: tensor<4xf32>, %b: tensor<4xf32>, %o: tensor<4xf32>, %x: f32) -> tensor<4xf32> {
  %0 = linalg.powf ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
