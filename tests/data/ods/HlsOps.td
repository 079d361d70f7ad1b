// A small out-of-tree dialect (tests/test_ods_formats.py): its ops' declarative
// formats are read through llvm-tblgen --dump-json, as a user's would be.
include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def Hls_Dialect : Dialect {
  let name = "hls";
  let cppNamespace = "::hls";
}

class Hls_Op<string mnemonic, list<Trait> traits = []> : Op<Hls_Dialect, mnemonic, traits>;

def Hls_MulAddOp : Hls_Op<"muladd", [Pure, SameOperandsAndResultType]> {
  let arguments = (ins AnyFloat:$a, AnyFloat:$b, AnyFloat:$c, UnitAttr:$fast);
  let results = (outs AnyFloat:$res);
  let assemblyFormat = "$a `,` $b `,` $c (`fast` $fast^)? attr-dict `:` type($res)";
}

def Hls_StreamReadOp : Hls_Op<"stream_read", [MemoryEffects<[MemRead]>]> {
  let arguments = (ins AnyMemRef:$stream, Variadic<Index>:$indices, I32Attr:$depth);
  let results = (outs AnyType:$value);
  let assemblyFormat = "$stream `[` $indices `]` `depth` $depth attr-dict `:` type($stream) `->` type($value)";
}
