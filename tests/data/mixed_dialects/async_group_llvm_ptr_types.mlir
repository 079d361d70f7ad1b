func.func @f(%g: !async.group, %p: !llvm.ptr) -> !async.group {
  return %g : !async.group
}
