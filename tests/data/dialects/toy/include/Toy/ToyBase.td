// The toy dialect's base (included by ToyOps.td: an include of the user's own).
include "mlir/IR/OpBase.td"

def Toy_Dialect : Dialect {
  let name = "toy";
  let summary = "A small dialect of affine-lsp's tests and README";
  let cppNamespace = "::toy";
}

class Toy_Op<string mnemonic, list<Trait> traits = []> : Op<Toy_Dialect, mnemonic, traits>;
