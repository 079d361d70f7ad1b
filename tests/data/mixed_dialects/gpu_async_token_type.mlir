func.func @f(%t: !gpu.async.token) -> !gpu.async.token {
  return %t : !gpu.async.token
}
