// A tiny out-of-tree dialect (tests/test_td_facts.py): its ops' traits and
// memory effects are read through llvm-tblgen --dump-json, as a user's are.
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def Facts_Dialect : Dialect {
  let name = "facts";
  let cppNamespace = "::facts";
}

class Facts_Op<string mnemonic, list<Trait> traits = []> : Op<Facts_Dialect, mnemonic, traits>;

def Facts_ScaleOp : Facts_Op<"scale", [Pure, SameOperandsAndResultType, Elementwise]> {
  let summary = "multiplies a float by a constant factor";
  let arguments = (ins F32:$x);
  let results = (outs F32:$y);
  let assemblyFormat = "$x attr-dict `:` type($y)";
}

def Facts_FillOp : Facts_Op<"fill"> {
  let summary = "writes a value to every element of a memref";
  let arguments = (ins F32:$value, Arg<AnyMemRef, "the filled memref", [MemWrite]>:$dst);
  let assemblyFormat = "$value `,` $dst attr-dict `:` type($dst)";
}

def Facts_MysteryOp : Facts_Op<"mystery"> {
  let summary = "an op that declares no memory effects";
  let arguments = (ins F32:$x);
  let results = (outs F32:$y);
  let assemblyFormat = "$x attr-dict `:` type($y)";
}

def Facts_CombineOp : Facts_Op<"combine", [Pure]> {
  let summary = "combines floats into floats";
  let arguments = (ins Variadic<F32>:$inputs);
  let results = (outs Variadic<F32>:$outputs);
  let assemblyFormat = "operands attr-dict `:` functional-type($inputs, $outputs)";
}

def Facts_NamedOp : Facts_Op<"named", [Pure]> {
  let summary = "an op whose format needs its dialect's C++ (custom<Name>)";
  let arguments = (ins F32:$x);
  let results = (outs F32:$y);
  let assemblyFormat = "`<` $x `>` custom<Name>() attr-dict `:` type($y)";
}
