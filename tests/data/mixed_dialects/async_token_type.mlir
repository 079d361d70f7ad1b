func.func @f(%t: !async.token) -> !async.token {
  return %t : !async.token
}
