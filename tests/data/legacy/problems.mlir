// Constructs without a mechanical modern form: reported with their line,
// left as written, and everything around them upgraded.
func @f(%a: f32, %b: f32, %mem: memref<4xf32, affine_map<(d0) -> (d0 + 1)>>) -> f32 {
  %c0 = constant 0 : index
  %s = addf %a, %b : f32
  %m = maxf %a, %b : f32
  %t = addf %s, %m : f32
  %tl = tensor_load %mem : memref<4xf32, affine_map<(d0) -> (d0 + 1)>>
  return %t : f32
}

mlfunc @ancient() {
  return
}
