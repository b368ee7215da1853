func.func @f() {
  %x = "prim.add"(
}
