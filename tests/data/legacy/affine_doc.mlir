// The examples of the legacy affine dialect reference (seed 001), completed.
#map10 = (d0, d1) -> (floordiv(d0, 8) + floordiv(d1, 128))
#map57 = (d0)[s0] -> (s0 - d0 - 1)
#set = (d0, d1)[s0]: (d0 - 10 >= 0, s0 - d0 - 9 >= 0, d1 - 10 >= 0, s0 - d1 - 9 >= 0)

func @F1(memref<?x?xf32>, index, index) -> f32
func @F2(f32, memref<?x?xf32>, index, index)

func @simple_example(%A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %N = dim %A, 0 : memref<?x?xf32>
  affine.for %i = 0 to %N step 1 {
    affine.for %j = 0 to %N { // implicitly steps by 1
      %0 = affine.apply #map57(%j)[%N]
      %tmp = call @F1(%A, %i, %0) : (memref<?x?xf32>, index, index)->(f32)
      call @F2(%tmp, %B, %i, %0) : (f32, memref<?x?xf32>, index, index)->()
    }
  }
  return
}

func @reduced_domain_example(%A: memref<?x?xf32>, %N: index, %s: index, %t: index) {
  %1 = affine.apply #map10 (%s, %t)
  // Inline example.
  %2 = affine.apply (i)[s0] -> (i+s0) (%1)[%N]
  affine.for %i = 0 to %N {
    affine.for %j = 0 to %N {
      affine.if #set(%i, %j)[%N] {
        %tmp = call @F1(%A, %i, %2) : (memref<?x?xf32>, index, index)->(f32)
        affine.terminator
      }
    }
  }
  return
}
