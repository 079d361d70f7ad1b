// affine_doc.mlir modernized by hand.
#map10 = affine_map<(d0, d1) -> (d0 floordiv 8 + d1 floordiv 128)>
#map57 = affine_map<(d0)[s0] -> (s0 - d0 - 1)>
#set = affine_set<(d0, d1)[s0] : (d0 - 10 >= 0, s0 - d0 - 9 >= 0, d1 - 10 >= 0, s0 - d1 - 9 >= 0)>

func.func private @F1(memref<?x?xf32>, index, index) -> f32
func.func private @F2(f32, memref<?x?xf32>, index, index)

func.func @simple_example(%A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %N = memref.dim %A, %c0 : memref<?x?xf32>
  affine.for %i = 0 to %N {
    affine.for %j = 0 to %N {
      %0 = affine.apply #map57(%j)[%N]
      %tmp = func.call @F1(%A, %i, %0) : (memref<?x?xf32>, index, index) -> f32
      func.call @F2(%tmp, %B, %i, %0) : (f32, memref<?x?xf32>, index, index) -> ()
    }
  }
  return
}

func.func @reduced_domain_example(%A: memref<?x?xf32>, %N: index, %s: index, %t: index) {
  %1 = affine.apply #map10(%s, %t)
  %2 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%1)[%N]
  affine.for %i = 0 to %N {
    affine.for %j = 0 to %N {
      affine.if #set(%i, %j)[%N] {
        %tmp = func.call @F1(%A, %i, %2) : (memref<?x?xf32>, index, index) -> f32
      }
    }
  }
  return
}
