func.func @f(%c: !cmath.complex<f32>) -> f32 {
  %m = "cmath.mul"(%c, %c) : (!cmath.complex<f32>, !cmath.complex<f32>) -> !cmath.complex<f32>
  %n = "cmath.norm"(%m) : (!cmath.complex<f32>) -> f32
  return %n : f32
}
