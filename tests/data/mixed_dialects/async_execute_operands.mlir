func.func @f(%v: !async.value<f32>) -> !async.value<f32> {
  %token, %r = async.execute (%v as %a: !async.value<f32>) -> !async.value<f32> {
    async.yield %a : f32
  }
  return %r : !async.value<f32>
}
