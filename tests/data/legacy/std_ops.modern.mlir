// std_ops.mlir modernized by hand (MLIR 22 syntax).
#map0 = affine_map<(d0) -> (d0 + 1)>
#map1 = affine_map<(d0, d1)[s0] -> (d0 floordiv 2 + d1 mod 4 + s0)>
#set0 = affine_set<(d0)[s0] : (d0 - 10 >= 0, s0 - d0 - 9 >= 0)>

memref.global "private" @gbuf : memref<4xf32>

func.func private @ext(f32) -> f32
func.func private @decl(index) -> index

func.func @arith_ops(%a: f32, %b: f32, %i: i32, %j: i32, %x: index) -> f32 {
  %c1 = arith.constant 1 : i32
  %cf = arith.constant 2.500000e+00 : f32
  %t = arith.constant true
  %fr = func.constant @ext : (f32) -> f32
  %0 = arith.addf %a, %b : f32
  %1 = arith.subf %0, %cf : f32
  %2 = arith.mulf %1, %b : f32
  %3 = arith.divf %2, %a : f32
  %4 = arith.remf %3, %a : f32
  %5 = arith.negf %4 : f32
  %6 = arith.addi %i, %j : i32
  %7 = arith.subi %6, %c1 : i32
  %8 = arith.muli %7, %j : i32
  %9 = arith.divsi %8, %j : i32
  %10 = arith.divui %9, %j : i32
  %11 = arith.remsi %10, %j : i32
  %12 = arith.remui %11, %j : i32
  %13 = arith.andi %12, %j : i32
  %14 = arith.ori %13, %j : i32
  %15 = arith.xori %14, %j : i32
  %16 = arith.shli %15, %c1 : i32
  %17 = arith.shrsi %16, %c1 : i32
  %18 = arith.shrui %17, %c1 : i32
  %c = arith.cmpi slt, %18, %j : i32
  %cl = arith.cmpf olt, %5, %b : f32
  %both = arith.andi %c, %cl : i1
  %s = arith.select %both, %5, %b : f32
  %ix = arith.index_cast %i : i32 to index
  %fi = arith.sitofp %i : i32 to f32
  %fu = arith.uitofp %j : i32 to f32
  %is = arith.fptosi %a : f32 to i32
  %iu = arith.fptoui %a : f32 to i32
  %d = arith.extf %a : f32 to f64
  %h = arith.truncf %d : f64 to f32
  %w = arith.extsi %i : i32 to i64
  %z = arith.extui %j : i32 to i64
  %n = arith.trunci %w : i64 to i16
  %bc = arith.bitcast %a : f32 to i32
  %e = call @ext(%s) : (f32) -> f32
  %ei = func.call_indirect %fr(%e) : (f32) -> f32
  %sum = arith.addf %ei, %h : f32
  %sum2 = arith.addf %sum, %fi : f32
  %sum3 = arith.addf %sum2, %fu : f32
  return %sum3 : f32
}

func.func @math_ops(%a: f32, %b: f32) -> f32 {
  %0 = math.absf %a : f32
  %1 = math.ceil %0 : f32
  %2 = math.floor %1 : f32
  %3 = math.exp %2 : f32
  %4 = math.log %3 : f32
  %5 = math.sqrt %4 : f32
  %6 = math.rsqrt %5 : f32
  %7 = math.tanh %6 : f32
  %8 = math.copysign %7, %b : f32
  %9 = math.sin %8 : f32
  %10 = math.cos %9 : f32
  %11 = math.fma %10, %a, %b : f32
  return %11 : f32
}

func.func @memref_ops(%A: memref<?xf32>, %B: memref<8x8xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %cst = arith.constant 0.0 : f32
  %m = memref.alloc(%n) : memref<?xf32>
  %s = memref.alloca() : memref<4xf32>
  %zero = arith.constant 0 : index
  %d = memref.dim %A, %zero : memref<?xf32>
  %v = memref.load %A[%c0] : memref<?xf32>
  memref.store %v, %m[%c0] : memref<?xf32>
  %buf = memref.alloc() : memref<2048xi8>
  %view = memref.view %buf[%c0][%c4] : memref<2048xi8> to memref<?x4xf32>
  %sub = memref.subview %B[0, 0] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, affine_map<(d0, d1) -> (d0 * 8 + d1)>>
  %cast = memref.cast %s : memref<4xf32> to memref<?xf32>
  %g = memref.get_global @gbuf : memref<4xf32>
  %src = memref.alloc() : memref<256xf32>
  %dst = memref.alloc() : memref<32xf32, 1>
  %tag = memref.alloc() : memref<1xi32>
  %num = arith.constant 32 : index
  memref.dma_start %src[%c0], %dst[%c0], %num, %tag[%c0] : memref<256xf32>, memref<32xf32, 1>, memref<1xi32>
  memref.dma_wait %tag[%c0], %num : memref<1xi32>
  memref.dealloc %tag : memref<1xi32>
  memref.dealloc %dst : memref<32xf32, 1>
  memref.dealloc %src : memref<256xf32>
  memref.dealloc %buf : memref<2048xi8>
  memref.dealloc %m : memref<?xf32>
  return
}

func.func @tensor_and_splat_ops(%a: f32, %t: tensor<?xf32>, %mem: memref<4xf32>) -> (f32, index, vector<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %e = tensor.extract %t[%c0] : tensor<?xf32>
  %d = tensor.dim %t, %c0 : tensor<?xf32>
  %v = vector.broadcast %a : f32 to vector<4xf32>
  %ts = tensor.splat %a : tensor<4xf32>
  %fe = tensor.from_elements %a, %e : tensor<2xf32>
  %tl = bufferization.to_tensor %mem : memref<4xf32> to tensor<4xf32>
  return %e, %d, %v, %ts, %fe, %tl : f32, index, vector<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>
}

func.func @cfg(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^bb1(%c0 : i32)
^bb1(%i: i32):
  %lt = arith.cmpi slt, %i, %n : i32
  cf.cond_br %lt, ^bb2, ^bb3
^bb2:
  %next = arith.addi %i, %c1 : i32
  cf.br ^bb1(%next : i32)
^bb3:
  return %i : i32
}

func.func @affine_forms(%A: memref<100xf32>, %N: index) {
  %cst = arith.constant 1.0 : f32
  affine.for %i = affine_map<(d0) -> (d0)>(%N) to 90 {
    %0 = affine.apply #map0(%i)
    %1 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)> (%i)[%N]
    %2 = affine.apply #map1(%i, %0)[%N]
    affine.if #set0(%i)[%N] {
      %v = affine.load %A[%i] : memref<100xf32>
      %w = arith.addf %v, %cst : f32
      affine.store %w, %A[%1] : memref<100xf32>
    }
    %r = func.call @decl(%2) : (index) -> index
  }
  return
}
