func.func private @ext()
func.func @f() {
  func.call @ext() : () -> ()
  return
}
