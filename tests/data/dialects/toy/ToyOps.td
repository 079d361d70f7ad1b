// A small out-of-tree dialect: affine-lsp reads its ops from this file
// (affine-lsp check --td ToyOps.td -I include FILE.mlir).
include "Toy/ToyBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def Toy_ScaleOp : Toy_Op<"scale", [Pure, SameOperandsAndResultType]> {
  let summary = "multiplies a value by a constant factor";
  let arguments = (ins AnyFloat:$input, F32Attr:$factor);
  let results = (outs AnyFloat:$output);
  let assemblyFormat = "$input `by` $factor attr-dict `:` type($output)";
}

def Toy_StoreOp : Toy_Op<"store"> {
  let summary = "writes a value into a memref element";
  let arguments = (ins AnyFloat:$value, Arg<AnyMemRef, "the written memref", [MemWrite]>:$memref, Variadic<Index>:$indices);
  let assemblyFormat = "$value `,` $memref `[` $indices `]` attr-dict `:` type($memref)";
}

def Toy_PrintOp : Toy_Op<"print"> {
  let summary = "prints a value";
  let arguments = (ins AnyType:$input, OptionalAttr<StrAttr>:$label);
  let assemblyFormat = "$input (`label` $label^)? attr-dict `:` type($input)";
}
