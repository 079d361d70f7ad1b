// Kernels for the language-server tests.
// Each function exercises a different feature.
#map = affine_map<(d0, d1) -> (d0 + d1)>
#set = affine_set<(d0)[s0] : (d0 - s0 >= 0)>
!T = memref<64x64xf32>

// A recurrence along %j: a RAW dependence of distance 1, carried by the inner loop.
func.func @recurrence(%A: !T, %N: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  affine.for %i = 0 to 64 {
    affine.for %j = 1 to 64 {
      %a = affine.load %A[%i, %j - 1] : !T
      affine.store %a, %A[%i, %j] : !T
    }
  }
  return
}

// No loop-carried dependence: both loops are parallel.
func.func @copy(%A: memref<64x64xf32>, %B: memref<64x64xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %v = affine.load %A[%i, %j] : memref<64x64xf32>
      affine.store %v, %B[%i, %j] : memref<64x64xf32>
    }
  }
  return
}

// Maps with operands: #map, an inline min bound, a set, constants.
func.func @maps(%A: memref<128xf32>, %N: index) {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %k = affine.apply #map(%c3, %c5)
  affine.for %i = 0 to min affine_map<(d0)[s0] -> (d0 + 8, s0)>(%c3)[%N] step 2 {
    %x = affine.apply #map(%i, %c3)
    affine.if #set(%i)[%N] {
      %v = affine.load %A[%x] : memref<128xf32>
      affine.store %v, %A[%i + 2] : memref<128xf32>
    }
  }
  return
}

// A stencil along two loops (WAR and RAW on %B through %t).
func.func @stencil(%B: memref<66xf32>, %T: index) {
  affine.for %t = 0 to %T {
    affine.for %i = 1 to 65 {
      %l = affine.load %B[%i - 1] : memref<66xf32>
      %r = affine.load %B[%i + 1] : memref<66xf32>
      %s = arith.addf %l, %r : f32
      affine.store %s, %B[%i] : memref<66xf32>
    }
  }
  return
}

func.func @caller(%A: !T, %N: index) {
  call @recurrence(%A, %N) : (!T, index) -> ()
  cf.br ^bb1
^bb1:
  return
}
