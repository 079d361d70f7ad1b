func.func @scale_all(%a: memref<16xf32>, %b: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    %x = affine.load %a[%i] : memref<16xf32>
    %y = toy.scale %x by 2.0 : f32
    toy.store %y, %b[%i] : memref<16xf32>
  }
  %c0 = arith.constant 0 : index
  %v = memref.load %b[%c0] : memref<16xf32>
  toy.print %v label "first" : f32
  return
}
