// Every rewrite rule of `affine-lsp upgrade`, in the pre-2022 syntax.
#map0 = (d0) -> (d0 + 1)
#map1 = (d0, d1)[s0] -> (d0 floordiv 2 + d1 mod 4 + s0)
#set0 = (d0)[s0] : (d0 - 10 >= 0, s0 - d0 - 9 >= 0)

global_memref "private" @gbuf : memref<4xf32>

func @ext(f32) -> f32
func private @decl(index) -> index

func @arith_ops(%a: f32, %b: f32, %i: i32, %j: i32, %x: index) -> f32 {
  %c1 = constant 1 : i32
  %cf = constant 2.5 : f32
  %t = constant true
  %fr = constant @ext : (f32) -> f32
  %0 = addf %a, %b : f32
  %1 = subf %0, %cf : f32
  %2 = mulf %1, %b : f32
  %3 = divf %2, %a : f32
  %4 = remf %3, %a : f32
  %5 = negf %4 : f32
  %6 = addi %i, %j : i32
  %7 = subi %6, %c1 : i32
  %8 = muli %7, %j : i32
  %9 = divi_signed %8, %j : i32
  %10 = divi_unsigned %9, %j : i32
  %11 = remi_signed %10, %j : i32
  %12 = remi_unsigned %11, %j : i32
  %13 = and %12, %j : i32
  %14 = or %13, %j : i32
  %15 = xor %14, %j : i32
  %16 = shift_left %15, %c1 : i32
  %17 = shift_right_signed %16, %c1 : i32
  %18 = shift_right_unsigned %17, %c1 : i32
  %c = cmpi "slt", %18, %j : i32
  %cl = cmpf "olt", %5, %b : f32
  %both = and %c, %cl : i1
  %s = select %both, %5, %b : f32
  %ix = index_cast %i : i32 to index
  %fi = sitofp %i : i32 to f32
  %fu = uitofp %j : i32 to f32
  %is = fptosi %a : f32 to i32
  %iu = fptoui %a : f32 to i32
  %d = fpext %a : f32 to f64
  %h = fptrunc %d : f64 to f32
  %w = sexti %i : i32 to i64
  %z = zexti %j : i32 to i64
  %n = trunci %w : i64 to i16
  %bc = bitcast %a : f32 to i32
  %e = call @ext(%s) : (f32) -> f32
  %ei = call_indirect %fr(%e) : (f32) -> f32
  %sum = addf %ei, %h : f32
  %sum2 = addf %sum, %fi : f32
  %sum3 = addf %sum2, %fu : f32
  return %sum3 : f32
}

func @math_ops(%a: f32, %b: f32) -> f32 {
  %0 = absf %a : f32
  %1 = ceilf %0 : f32
  %2 = floorf %1 : f32
  %3 = exp %2 : f32
  %4 = log %3 : f32
  %5 = sqrt %4 : f32
  %6 = rsqrt %5 : f32
  %7 = tanh %6 : f32
  %8 = copysign %7, %b : f32
  %9 = std.sin %8 : f32
  %10 = cos %9 : f32
  %11 = fmaf %10, %a, %b : f32
  std.return %11 : f32
}

func @memref_ops(%A: memref<?xf32>, %B: memref<8x8xf32>, %n: index) {
  %c0 = constant 0 : index
  %c4 = constant 4 : index
  %cst = constant 0.0 : f32
  %m = alloc(%n) : memref<?xf32>
  %s = alloca() : memref<4xf32>
  %d = dim %A, 0 : memref<?xf32>
  %v = load %A[%c0] : memref<?xf32>
  store %v, %m[%c0] : memref<?xf32>
  %buf = alloc() : memref<2048xi8>
  %view = view %buf[%c0][%c4] : memref<2048xi8> to memref<?x4xf32>
  %sub = subview %B[0, 0] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, affine_map<(d0, d1) -> (d0 * 8 + d1)>>
  %cast = memref_cast %s : memref<4xf32> to memref<?xf32>
  %g = get_global_memref @gbuf : memref<4xf32>
  %src = alloc() : memref<256xf32>
  %dst = alloc() : memref<32xf32, 1>
  %tag = alloc() : memref<1xi32>
  %num = constant 32 : index
  dma_start %src[%c0], %dst[%c0], %num, %tag[%c0] : memref<256xf32>, memref<32xf32, 1>, memref<1xi32>
  dma_wait %tag[%c0], %num : memref<1xi32>
  dealloc %tag : memref<1xi32>
  dealloc %dst : memref<32xf32, 1>
  dealloc %src : memref<256xf32>
  dealloc %buf : memref<2048xi8>
  dealloc %m : memref<?xf32>
  return
}

func @tensor_and_splat_ops(%a: f32, %t: tensor<?xf32>, %mem: memref<4xf32>) -> (f32, index, vector<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>) {
  %c0 = constant 0 : index
  %e = extract_element %t[%c0] : tensor<?xf32>
  %d = dim %t, %c0 : tensor<?xf32>
  %v = splat %a : vector<4xf32>
  %ts = splat %a : tensor<4xf32>
  %fe = tensor_from_elements %a, %e : tensor<2xf32>
  %tl = tensor_load %mem : memref<4xf32>
  return %e, %d, %v, %ts, %fe, %tl : f32, index, vector<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>
}

func @cfg(%n: i32) -> i32 {
  %c0 = constant 0 : i32
  %c1 = constant 1 : i32
  br ^bb1(%c0 : i32)
^bb1(%i: i32):
  %lt = cmpi "slt", %i, %n : i32
  cond_br %lt, ^bb2, ^bb3
^bb2:
  %next = addi %i, %c1 : i32
  br ^bb1(%next : i32)
^bb3:
  return %i : i32
}

func @affine_forms(%A: memref<100xf32>, %N: index) {
  %cst = std.constant 1.0 : f32
  affine.for %i = (d0) -> (d0)(%N) to 90 {
    %0 = affine.apply #map0(%i)
    %1 = affine.apply (d0)[s0] -> (d0 + s0) (%i)[%N]
    %2 = affine.apply #map1(%i, %0)[%N]
    affine.if #set0(%i)[%N] {
      %v = affine.load %A[%i] : memref<100xf32>
      %w = "std.addf"(%v, %cst) : (f32, f32) -> f32
      affine.store %w, %A[%1] : memref<100xf32>
      affine.terminator
    }
    %r = call @decl(%2) : (index) -> index
    affine.terminator
  }
  return
}
