// One of every op form of the dialect families with a grammar file of their
// own (grammar/{scf,gpu,llvm,linalg,tensor,memref,vector,bufferization,transform}.lark), next to
// affine code as real files have them. mlir-opt 22.1.8 accepts this file
// (tests/test_dialect_families.py checks it, and that affine-lsp parses it
// without a diagnostic and prints it back to the same IR).

#id = affine_map<(d0, d1) -> (d0, d1)>
#trait = {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}

module attributes {gpu.container_module} {
  func.func @scf_ops(%n: index, %t: tensor<?xf32>, %m: memref<4x8xf32>, %step: index) -> f32 {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    %r = scf.while (%a = %f) : (f32) -> f32 {
      %cond = arith.cmpf olt, %a, %a : f32
      scf.condition(%cond) %a : f32
    } do {
    ^bb0(%x: f32):
      %y = arith.addf %x, %x : f32
      scf.yield %y : f32
    }
    scf.while : () -> () {
      %false = arith.constant false
      scf.condition(%false)
    } do {
      scf.yield
    }
    %e = scf.execute_region -> f32 {
      affine.for %i = 0 to 4 {
        affine.store %f, %m[%i, %i] : memref<4x8xf32>
      }
      scf.yield %f : f32
    }
    %ni = scf.execute_region -> i32 no_inline {
      %c7 = arith.constant 7 : i32
      scf.yield %c7 : i32
    }
    %s = scf.index_switch %n -> f32
    case 2 {
      scf.yield %f : f32
    }
    case 5 {
      scf.yield %r : f32
    }
    default {
      scf.yield %e : f32
    }
    %o = scf.forall (%i) = (%c0) to (%n) step (%step) shared_outs(%out = %t) -> (tensor<?xf32>) {
      %sl = tensor.extract_slice %out[%i] [1] [1] : tensor<?xf32> to tensor<1xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %sl into %out[%i] [1] [1] : tensor<1xf32> into tensor<?xf32>
      }
    }
    scf.forall (%i, %j) in (4, 8) {
      memref.store %s, %m[%i, %j] : memref<4x8xf32>
    } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
    return %r : f32
  }

  func.func @gpu_ops(%sz: index, %smem: i32, %tok: !gpu.async.token, %buf: memref<4xf32>) {
    %t2 = gpu.launch async [%tok] blocks(%bx, %by, %bz) in (%gx = %sz, %gy = %sz, %gz = %sz)
        threads(%tx, %ty, %tz) in (%sx = %sz, %sy = %sz, %sxz = %sz)
        dynamic_shared_memory_size %smem
        workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>>)
        private(%p : memref<1xf32, #gpu.address_space<private>>) {
      gpu.barrier
      %tid = gpu.thread_id x
      %v = affine.load %w[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
      affine.store %v, %p[0] : memref<1xf32, #gpu.address_space<private>>
      affine.for %i = 0 to 4 {
        %k = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%i)[%gx]
      }
      gpu.terminator
    }
    gpu.launch clusters(%cx, %cy, %cz) in (%csx = %sz, %csy = %sz, %csz = %sz)
        blocks(%bx, %by, %bz) in (%gx = %sz, %gy = %sz, %gz = %sz)
        threads(%tx, %ty, %tz) in (%sx = %sz, %sy = %sz, %sxz = %sz) {
      %b = gpu.block_id y
      %d = gpu.block_dim z
      %g = gpu.grid_dim x upper_bound 64
      %c = gpu.cluster_id x
      gpu.terminator
    }
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %sz, %gy = %sz, %gz = %sz)
        threads(%tx, %ty, %tz) in (%sx = %sz, %sy = %sz, %sxz = %sz)
        module(@outlined) function(@kernel) {
      gpu.terminator
    }
    gpu.launch_func @kernels::@k blocks in (%sz, %sz, %sz) threads in (%sz, %sz, %sz) args(%buf : memref<4xf32>)
    %t4 = gpu.wait async
    gpu.wait [%t4]
    %t3 = gpu.launch_func async [%tok] @kernels::@k blocks in (%sz, %sz, %sz) threads in (%sz, %sz, %sz) dynamic_shared_memory_size %smem args(%buf : memref<4xf32>)
    return
  }

  gpu.module @kernels {
    gpu.func @k(%arg0: memref<4xf32>) workgroup(%wg : memref<4xf32, #gpu.address_space<workgroup>>) kernel {
      %x = gpu.thread_id x
      %v = memref.load %arg0[%x] : memref<4xf32>
      memref.store %v, %wg[%x] : memref<4xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }

  func.func @linalg_ops(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>, %t: tensor<4x8xf32>, %cst: f32) -> tensor<4x8xf32> {
    linalg.fill ins(%cst : f32) outs(%c : memref<4x4xf32>)
    linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>)
    linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
        ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>)
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      %i0 = linalg.index 0 : index
      linalg.yield %s : f32
    }
    %g = linalg.generic #trait ins(%t : tensor<4x8xf32>) outs(%t : tensor<4x8xf32>) attrs = {foo = 1} {
    ^bb0(%x: f32, %y: f32):
      linalg.yield %x : f32
    } -> tensor<4x8xf32>
    %e = tensor.empty() : tensor<4x8xf32>
    %mp = linalg.map ins(%t, %g : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>)
      (%in: f32, %in2: f32, %init: f32) {
        %0 = arith.addf %in, %in2 : f32
        linalg.yield %0 : f32
      }
    %short = linalg.map { arith.mulf } ins(%mp, %mp : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>)
    %e2 = tensor.empty() : tensor<4xf32>
    %rd = linalg.reduce ins(%short : tensor<4x8xf32>) outs(%e2 : tensor<4xf32>) dimensions = [1]
      (%in: f32, %init: f32) {
        %0 = arith.addf %in, %init : f32
        linalg.yield %0 : f32
      }
    %e3 = tensor.empty() : tensor<8x4xf32>
    %tr = linalg.transpose ins(%t : tensor<4x8xf32>) outs(%e3 : tensor<8x4xf32>) permutation = [1, 0]
    %bc = linalg.broadcast ins(%rd : tensor<4xf32>) outs(%e : tensor<4x8xf32>) dimensions = [1]
    %ew = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%t : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    return %bc : tensor<4x8xf32>
  }

  func.func @tensor_memref_ops(%m: memref<32xf32>, %t: tensor<4x8xf32>, %i: index, %cst: f32, %n: i32, %vec: vector<4xf32>) {
    %ex = memref.expand_shape %m [[0, 1]] output_shape [4, 8] : memref<32xf32> into memref<4x8xf32>
    %co = memref.collapse_shape %ex [[0, 1]] : memref<4x8xf32> into memref<32xf32>
    %rmw = memref.atomic_rmw addf %cst, %m[%i] : (f32, memref<32xf32>) -> f32
    %rl = memref.realloc %m : memref<32xf32> to memref<64xf32>
    %rl2 = memref.realloc %rl(%i) : memref<64xf32> to memref<?xf32>
    %rk = memref.rank %rl2 : memref<?xf32>
    %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %ex : memref<4x8xf32> -> memref<f32>, index, index, index, index, index
    memref.alloca_scope {
      %a = memref.alloca() : memref<4xf32>
      memref.alloca_scope.return
    }
    %p = math.fpowi %cst, %n : f32, i32
    %nan = math.isnan %cst : f32
    %vnan = math.isinf %vec : vector<4xf32>
    %ah = math.acosh %cst : f32
    %lo, %hi = arith.mului_extended %n, %n : i32
    %sum, %ov = arith.addui_extended %n, %n : i32, i1
    %fe = tensor.from_elements %cst, %cst : tensor<2xf32>
    %gen = tensor.generate %i {
    ^bb0(%q: index):
      tensor.yield %cst : f32
    } : tensor<?xf32>
    %cs = tensor.cast %gen : tensor<?xf32> to tensor<4xf32>
    %sl = tensor.extract_slice %t[0, %i] [2, 2] [1, 1] : tensor<4x8xf32> to tensor<2x2xf32>
    %is = tensor.insert_slice %sl into %t[0, %i] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x8xf32>
    %tex = tensor.expand_shape %fe [[0, 1]] output_shape [1, 2] : tensor<2xf32> into tensor<1x2xf32>
    %tco = tensor.collapse_shape %tex [[0, 1]] : tensor<1x2xf32> into tensor<2xf32>
    %ix = builtin.unrealized_conversion_cast %n : i32 to index
    %ptr = memref.extract_aligned_pointer_as_index %m : memref<32xf32> -> index
    %fast = memref.alloc() : memref<32xf32, 2>
    %tag = memref.alloc() : memref<1xi32>
    memref.dma_start %m[%i], %fast[%i], %i, %tag[%i] : memref<32xf32>, memref<32xf32, 2>, memref<1xi32>
    memref.dma_start %m[%i], %fast[%i], %i, %tag[%i], %i, %i : memref<32xf32>, memref<32xf32, 2>, memref<1xi32>
    memref.dma_wait %tag[%i], %i : memref<1xi32>
    %sin, %cos = math.sincos %cst : f32
    %shape = memref.alloca() : memref<2xi32>
    %rs = memref.reshape %m(%shape) : (memref<32xf32>, memref<2xi32>) -> memref<?x?xf32>
    %tp = memref.transpose %ex (i, j) -> (j, i) : memref<4x8xf32> to memref<8x4xf32, strided<[1, 8]>>
    %ga = memref.generic_atomic_rmw %m[%i] : memref<32xf32> {
    ^bb0(%old: f32):
      %new = arith.addf %old, %cst : f32
      memref.atomic_yield %new : f32
    }
    affine.for %k = 0 to 4 {
      %v = affine.load %ex[%k, %k] : memref<4x8xf32>
    }
    return
  }

  func.func @pad_and_bufferization(%t: tensor<4x4xf32>, %m: memref<4xf32>, %i: index, %c: f32, %d: index) {
    %p = tensor.pad %t low[0, %i] high[1, 0] {
    ^bb0(%a: index, %b: index):
      tensor.yield %c : f32
    } : tensor<4x4xf32> to tensor<5x?xf32>
    %p2 = tensor.pad %t nofold low[1, 1] high[1, 1] {
    ^bb0(%a: index, %b: index):
      tensor.yield %c : f32
    } : tensor<4x4xf32> to tensor<6x6xf32>
    %tt = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf32>
    %tr = bufferization.to_tensor %m restrict writable : memref<4xf32> to tensor<4xf32>
    %mb = bufferization.to_buffer %tt read_only : tensor<4xf32> to memref<4xf32>
    %at = bufferization.alloc_tensor(%d) : tensor<?xf32>
    %ac = bufferization.alloc_tensor() copy(%tt) : tensor<4xf32>
    bufferization.materialize_in_destination %tt in writable %m : (tensor<4xf32>, memref<4xf32>) -> ()
    affine.for %k = 0 to 4 {
      %v = affine.load %mb[%k] : memref<4xf32>
    }
    return
  }

  func.func @vector_ops(%a: vector<4x8xf32>, %b: vector<8x4xf32>, %acc: vector<4x4xf32>, %v: vector<4xf32>, %w: vector<8xf32>, %x: f32, %m: memref<16xf32>) {
    %ct = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %a, %b, %acc : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
    %tr = vector.transpose %a, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
    %bc = vector.bitcast %v : vector<4xf32> to vector<4xi32>
    %fe = vector.from_elements %x, %x, %x, %x : vector<4xf32>
    %ss = vector.extract_strided_slice %w {offsets = [2], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
    %is = vector.insert_strided_slice %ss, %w {offsets = [0], strides = [1]} : vector<4xf32> into vector<8xf32>
    %sh = vector.shuffle %v, %v [0, 5, 2] : vector<4xf32>, vector<4xf32>
    %op = vector.outerproduct %v, %w : vector<4xf32>, vector<8xf32>
    %ax = vector.outerproduct %v, %x, %v {kind = #vector.kind<add>} : vector<4xf32>, f32
    %st = vector.step : vector<4xindex>
    affine.for %i = 0 to 16 step 4 {
      %l = affine.vector_load %m[%i] : memref<16xf32>, vector<4xf32>
      %s = arith.addf %l, %fe : vector<4xf32>
      affine.vector_store %s, %m[%i] : memref<16xf32>, vector<4xf32>
    }
    return
  }

  llvm.func @llvm_ops(%arg0: i64) -> i64 {
    %0 = llvm.mlir.constant(2 : index) : i64
    %1 = llvm.alloca %0 x f32 : (i64) -> !llvm.ptr
    %f = llvm.load %1 : !llvm.ptr -> f32
    %g = llvm.load volatile %1 {alignment = 4 : i64} : !llvm.ptr -> f32
    llvm.store %f, %1 : f32, !llvm.ptr
    %2 = llvm.getelementptr %1[%0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %3 = llvm.getelementptr inbounds %1[%0, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(f32, f32)>
    %4 = llvm.call @llvm_ops(%arg0) : (i64) -> i64
    llvm.return %4 : i64
  }

  llvm.mlir.global internal @global(42 : i64) {addr_space = 0 : i32} : i64
  llvm.mlir.global internal constant @zeros() : !llvm.array<2 x i64> {
    %z = llvm.mlir.zero : !llvm.array<2 x i64>
    llvm.return %z : !llvm.array<2 x i64>
  }

  llvm.func @llvm_globals() -> !llvm.ptr {
    %a = llvm.mlir.addressof @global : !llvm.ptr
    llvm.return %a : !llvm.ptr
  }

  llvm.func internal @llvm_void() {
    llvm.return
  }

  llvm.func @llvm_decl(i64) -> i64
  llvm.func @printf(!llvm.ptr, ...) -> i32

  llvm.func @llvm_calls(%fp: !llvm.ptr, %a: i64, %s: !llvm.ptr) -> i64 {
    %r = llvm.call %fp(%a) : !llvm.ptr, (i64) -> i64
    %p = llvm.call @printf(%s, %a) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64) -> i32
    llvm.return %r : i64
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    transform.yield
  }
  transform.named_sequence @forward(%arg0: !transform.any_op {transform.consumed}) -> !transform.any_op {
    transform.yield %arg0 : !transform.any_op
  }
}
