// Early-2019 syntax (modelled on the LLVM memref-dependence-check and
// loop-fusion tests of that time): `for`, `if` and `affine_apply` before
// they took the affine. prefix, plain load/store in affine loops.
#set0 = (d0) : (d0 - 5 >= 0)

func @dependent_loops() {
  %0 = alloc() : memref<10xf32>
  %cst = constant 7.000000e+00 : f32
  for %i0 = 0 to 10 {
    store %cst, %0[%i0] : memref<10xf32>
  }
  for %i1 = 0 to 10 {
    %idx = affine_apply (d0) -> (d0 + 1) (%i1)
    if #set0(%i1) {
      %1 = load %0[%i1] : memref<10xf32>
    }
  }
  return
}
