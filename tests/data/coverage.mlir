// Every construct the foundation issue lists, accepted by mlir-opt 22.1.8
// (--allow-unregistered-dialect). tests/test_grammar_coverage.py checks that
// affine-lsp parses it without errors and builds the expected IR.
#map = affine_map<(d0, d1)[s0] -> (d0 + s0, d1 * 2 - 1, (d0 floordiv 4) mod 3, -d1 ceildiv 2)>
#semi = affine_map<(d0)[s0, s1] -> (d0 * s0, d0 mod s1, d0 floordiv s0)>
#set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 == 5, d0 <= d1)>
#strided = strided<[4, 1], offset: ?>
#attr = {key = "value", n = 42 : i64}
!ptr = !llvm.ptr
!nested = !test.box<!test.inner<i32, "s<tr>">, 4>

module @m attributes {test.flag, test.num = 3 : i32} {
  func.func private @decl(i32, f32 {test.arg}) -> (f64 {test.res})
  func.func nested @nested_vis() {
    return
  }
  func.func @types(%a: index, %b: i1, %c: si8, %d: ui16, %e: bf16, %f: f16, %g: f64, %h: complex<f32>,
                   %i: tuple<i32, f32>, %j: none, %k: memref<?x4xf32, #strided>, %l: memref<*xf32>,
                   %m: memref<4xf32, affine_map<(d0) -> (d0 + 1)>, 1>, %n: vector<[4]x8xf32>, %o: tensor<?x?xf32>,
                   %p: tensor<*xi8>, %q: !ptr, %r: !nested, %s: (i32) -> f32, %t: memref<2 x 3 x f32>, %u: vector<f32>) {
    return
  }
  func.func @attrs() -> (i32, f32) attributes {test.dict = #attr} {
    %0 = "test.op"() {i = -7, f = 1.5e-3 : f32, h = 0x7FC00000 : f32, s = "a\"b", arr = [1, "x", [2.0]],
         u, dense = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>, splat = dense<1.0> : vector<4xf32>,
         res = dense_resource<blob1> : tensor<4xf32>, m = #map, inl = affine_map<() -> (0)>, st = #set,
         da = array<i64: 1, 2, 3>, ea = array<f32>, d = #test.attr<"q", [1, 2]>, sym = @attrs, nsym = @a::@b,
         ty = i32, fty = (i32) -> (), t = true, ff = false, un = unit} : () -> i32
    %1 = "test.two"() <{prop = 1 : i32}> : () -> f32
    %2:2 = "test.multi"(%0, %1) : (i32, f32) -> (i32, i32)
    "test.regions"(%2#0) ({
    ^bb0(%x: i32):
      "test.yield"(%x) : (i32) -> ()
    }, {
      "test.yield"() : () -> ()
    }) : (i32) -> ()
    "test.succ"()[^bb1] : () -> ()
  ^bb1:
    return %0, %1 : i32, f32 loc("file.mlir":3:4)
  }
  func.func @affine_ops(%A: memref<100x100xf32>, %V: memref<100xvector<8xf32>>, %N: index, %t: memref<1xi32>) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %i0 = affine.apply affine_map<(d0, d1)[s0] -> (d0 + d1 * s0)>(%c0, %c4)[%N]
    %m4:4 = "test.use_map"() {m = #map, s = #semi} : () -> (index, index, index, index)
    %min = affine.min affine_map<(d0)[s0] -> (d0 + 10, s0)>(%c0)[%N]
    %max = affine.max affine_map<(d0) -> (d0, 0)>(%c0)
    %idx:2 = affine.delinearize_index %N into (4, %c4) : index, index
    %lin = affine.linearize_index disjoint [%idx#0, %idx#1] by (4, %c4) : index
    %r = affine.for %i = max affine_map<(d0) -> (0, d0)>(%c0) to min affine_map<()[s0] -> (100, s0)>()[%N] step 2 iter_args(%acc = %c0) -> (index) {
      affine.for %j = %c0 to %N {
        %v = affine.load %A[%i + 1, symbol(%N) - %j] : memref<100x100xf32>
        affine.store %v, %A[%i, %j] : memref<100x100xf32>
        %w = affine.vector_load %A[%i, %j] : memref<100x100xf32>, vector<8xf32>
        affine.vector_store %w, %A[%i, %j] : memref<100x100xf32>, vector<8xf32>
        affine.prefetch %A[%i, %j], read, locality<3>, data : memref<100x100xf32>
      }
      %y = affine.if #set(%i, %c4)[%N] -> index {
        affine.yield %i : index
      } else {
        affine.yield %acc : index
      }
      affine.yield %y : index
    }
    %s = affine.parallel (%p, %q) = (0, max(%c0, 2)) to (symbol(%N), 100) step (2, 4) reduce ("addf") -> (f32) {
      %v = affine.load %A[%p, %q] : memref<100x100xf32>
      affine.yield %v : f32
    }
    affine.dma_start %A[%c0, %c0], %A[%c4, %c4], %t[%c0], %c4 : memref<100x100xf32>, memref<100x100xf32>, memref<1xi32>
    affine.dma_wait %t[%c0], %c4 : memref<1xi32>
    return
  }
  func.func @neighbours(%m: memref<?xf32>, %v: vector<8xf32>, %x: f32, %i: index, %k: i32) -> f32 {
    %c0 = arith.constant 0 : index
    %cf = arith.constant 0.0 : f32
    %ci = arith.constant -3 : i32
    %ct = arith.constant true
    %cd = arith.constant dense<0.0> : vector<8xf32>
    %a = arith.addf %x, %x fastmath<fast> : f32
    %b = arith.addi %k, %ci overflow<nsw> : i32
    %c = arith.cmpi slt, %i, %c0 : index
    %cmpf = arith.cmpf olt, %x, %cf : f32
    %s = arith.select %c, %x, %a : f32
    %ic = arith.index_cast %k : i32 to index
    %fp = arith.sitofp %k : i32 to f32
    %e = math.exp %x : f32
    %fma = math.fma %x, %x, %x : f32
    %al = memref.alloc(%i) : memref<?xf32>
    %as = memref.alloca() {alignment = 64 : i64} : memref<4xf32>
    %dim = memref.dim %m, %c0 : memref<?xf32>
    %ld = memref.load %m[%c0] : memref<?xf32>
    memref.store %ld, %al[%c0] : memref<?xf32>
    %cast = memref.cast %as : memref<4xf32> to memref<?xf32>
    %sub = memref.subview %al[%c0][4][1] : memref<?xf32> to memref<4xf32, strided<[1], offset: ?>>
    %buf = memref.alloc() : memref<64xi8>
    %view = memref.view %buf[%c0][] : memref<64xi8> to memref<16xf32>
    %rc = memref.reinterpret_cast %as to offset: [0], sizes: [2, 2], strides: [2, 1] : memref<4xf32> to memref<2x2xf32>
    %g = memref.get_global @gv : memref<4xf32>
    memref.dealloc %al : memref<?xf32>
    %tr = vector.transfer_read %m[%c0], %cf {in_bounds = [false]} : memref<?xf32>, vector<8xf32>
    %tr2 = vector.transfer_read %rc[%c0, %c0], %cf {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<2x2xf32>, vector<2xf32>
    vector.transfer_write %tr, %m[%c0] : vector<8xf32>, memref<?xf32>
    %bc = vector.broadcast %x : f32 to vector<8xf32>
    %red = vector.reduction <add>, %v, %x : vector<8xf32> into f32
    %vl = vector.load %m[%c0] : memref<?xf32>, vector<8xf32>
    vector.store %vl, %m[%c0] : memref<?xf32>, vector<8xf32>
    %mask = vector.create_mask %c0 : vector<8xi1>
    %mld = vector.maskedload %m[%c0], %mask, %v : memref<?xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
    %ex = vector.extract %v[0] : f32 from vector<8xf32>
    %in = vector.insert %x, %v [1] : f32 into vector<8xf32>
    %sf = scf.for %q = %c0 to %i step %i iter_args(%acc = %x) -> (f32) {
      %t = arith.addf %acc, %x : f32
      scf.yield %t : f32
    }
    %si = scf.if %c -> (f32) {
      scf.yield %x : f32
    } else {
      scf.yield %a : f32
    }
    scf.parallel (%p) = (%c0) to (%i) step (%i) {
      scf.reduce
    }
    %te = tensor.empty(%i) : tensor<?xf32>
    %td = tensor.dim %te, %c0 : tensor<?xf32>
    %po = ub.poison : f32
    %call = call @neighbours(%m, %v, %x, %i, %k) : (memref<?xf32>, vector<8xf32>, f32, index, i32) -> f32
    cf.br ^bb1(%x : f32)
  ^bb1(%arg: f32):
    return %arg : f32
  }
  memref.global "private" constant @gv : memref<4xf32> = dense<1.0>
}
