"""Reduce actions of ``grammar/llvm.lark``: the llvm ops lowered code
carries (llvm.mlir.constant, alloca, load, store, getelementptr, call,
return, func), in MLIR's generic shape."""

from __future__ import annotations

from typing import Any

from affine_lsp.ir.attributes import Attribute, DenseArrayAttr, DictAttr, IntegerAttr, OpaqueAttr, StringAttr, SymbolRefAttr, TypeAttr, UnitAttr
from affine_lsp.ir.types import FunctionType, IntegerType, OpaqueType, Type
from affine_lsp.syntax.nodes import OpSyn, RegionSyn
from affine_lsp.syntax.opkit import Ops, is_tok, unquote

I32 = IntegerType(32)
GEP_DYNAMIC = -(2**31)  # LLVM::GEPOp::kDynamicIndex in rawConstantIndices
# LLVM::GEPNoWrapFlags
GEP_FLAGS = {"inbounds": 3, "nusw": 2, "nuw": 4}


class LlvmOps:
    """Mixed into :class:`~affine_lsp.syntax.parser.ChunkTransformer`."""

    def llvm_constant(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "llvm.mlir.constant")
        op.attrs["value"] = c[2]
        if isinstance(c[4], DictAttr):
            op.attrs.update(c[4].entries)
        op.result_types = [c[-1]]
        return op

    def llvm_alloca(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "llvm.alloca")
        i = 1
        if is_tok(c[i], "INALLOCA_KW"):
            op.attrs["inalloca"] = UnitAttr(self.sp(c[i]))
            i += 1
        op.operands = [(str(c[i]), self.sp(c[i]))]
        op.attrs["elem_type"] = TypeAttr(c[i + 1])
        self._dict_and_signature(op, c[i + 2 :])
        return op

    def llvm_load(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "llvm.load")
        i = 1
        if is_tok(c[i], "VOLATILE_KW"):
            op.attrs["volatile_"] = UnitAttr(self.sp(c[i]))
            i += 1
        op.operands = [(str(c[i]), self.sp(c[i]))]
        types = [x for x in c[i + 1 :] if isinstance(x, Type)]
        for x in c[i + 1 :]:
            if isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        op.operand_types = types[:1]
        op.result_types = types[1:2]
        return op

    def llvm_store(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "llvm.store")
        i = 1
        if is_tok(c[i], "VOLATILE_KW"):
            op.attrs["volatile_"] = UnitAttr(self.sp(c[i]))
            i += 1
        op.operands = [(str(c[i]), self.sp(c[i])), (str(c[i + 1]), self.sp(c[i + 1]))]
        self._trailing(op, c[i + 2 :])
        op.result_types = []
        return op

    def llvm_gep(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "llvm.getelementptr")
        flags = 0
        i = 1
        if is_tok(c[i], "GEP_FLAG_KW"):  # (`nusw|nuw`, flags joined by '|', is not supported)
            flags = GEP_FLAGS[str(c[i])]
            i += 1
        op.operands = [(str(c[i]), self.sp(c[i]))]
        raw: list[int] = []
        for x in c[i + 1 :]:
            if is_tok(x, "SSA_ID"):
                op.operands.append((str(x), self.sp(x)))
                raw.append(GEP_DYNAMIC)
            elif isinstance(x, tuple):
                raw.append(x[0])
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
            elif isinstance(x, FunctionType):
                op.operand_types = list(x.inputs)
                op.result_types = list(x.results)
            elif isinstance(x, Type):
                op.attrs["elem_type"] = TypeAttr(x)
        op.attrs["rawConstantIndices"] = DenseArrayAttr(I32, raw)
        op.attrs["noWrapFlags"] = IntegerAttr(flags, I32)
        return op

    def llvm_call(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "llvm.call")
        indirect = is_tok(c[1], "SSA_ID")  # the callee pointer is the first operand
        if not indirect:
            op.attrs["callee"] = SymbolRefAttr(str(c[1]), self.sp(c[1]))
        op.operands = [(str(c[1]), self.sp(c[1]))] if indirect else []
        for x in c[2:]:
            if isinstance(x, Ops):
                op.operands += list(x)
            elif isinstance(x, tuple) and x[0] == "vararg":
                op.attrs["var_callee_type"] = TypeAttr(x[1])
        self._dict_and_signature(op, c[2:])
        if indirect:  # `: !llvm.ptr, (args) -> results`
            ptr = next((x for x in c[2:] if isinstance(x, Type) and not isinstance(x, FunctionType)), None)
            op.operand_types = [ptr] + list(op.operand_types or [])
        op.segments = (len(op.operands), 0)
        return op

    def llvm_vararg(self: Any, c: list) -> tuple:
        return ("vararg", c[1], self.span_of(c[0], c[-1]))

    def llvm_signature(self: Any, c: list) -> tuple:
        """func.func's signature (a ``sig`` tuple), marked ``variadic``
        when the arguments end with ``...``."""
        variadic = any(isinstance(x, tuple) and x[0] == "args" and x[2] for x in c)
        return (*self.func_signature(c), "variadic" if variadic else "fixed")

    def llvm_args(self: Any, c: list) -> tuple:
        return ("args", [x for x in c if isinstance(x, tuple)], any(is_tok(x, "ELLIPSIS") for x in c))

    def llvm_return(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "llvm.return")
        if len(c) > 1:
            op.operands = [(str(c[1]), self.sp(c[1]))]
            op.operand_types = [c[-1]]
        op.result_types = []
        return op

    def llvm_func(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "llvm.func")
        for x in c[1:]:
            if is_tok(x, "BARE_ID") and str(x) in LINKAGES:
                op.attrs["linkage"] = OpaqueAttr(f"#llvm.linkage<{x}>", None, self.sp(x))
        sig = next(x for x in c if isinstance(x, tuple) and x[0] == "sig")
        variadic = sig[-1] == "variadic"
        self._function_parts(op, [x[:-1] if x is sig else x for x in c[1:]])
        ft = op.attrs.get("function_type")
        if isinstance(ft, TypeAttr) and isinstance(ft.type, FunctionType):
            # llvm.func's type is an LLVM function type: `!llvm.func<i64 (i64)>`.
            res = ft.type.results
            ret = str(res[0]) if len(res) == 1 else "void" if not res else "!llvm.struct<(" + ", ".join(map(str, res)) + ")>"
            args = [str(t) for t in ft.type.inputs] + (["..."] if variadic else [])
            op.attrs["function_type"] = TypeAttr(OpaqueType(f"!llvm.func<{ret} ({', '.join(args)})>"))
        return op

    def llvm_global(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "llvm.mlir.global")
        op.result_types = []
        rp = next(i for i, x in enumerate(c) if is_tok(x, "RP"))
        for i, x in enumerate(c[1:], 1):
            if is_tok(x, "BARE_ID"):
                word = str(x)
                if word in LINKAGES:
                    op.attrs["linkage"] = OpaqueAttr(f"#llvm.linkage<{word}>", None, self.sp(x))
                else:  # constant, thread_local, unnamed_addr, ...
                    op.attrs[word] = UnitAttr(self.sp(x))
            elif is_tok(x, "SYMBOL_REF"):
                op.attrs["sym_name"] = StringAttr(unquote(str(x)[1:]), str(x), self.sp(x))
            elif i < rp and isinstance(x, Attribute):
                op.attrs["value"] = x
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
            elif isinstance(x, Type):
                op.attrs["global_type"] = TypeAttr(x)
            elif isinstance(x, RegionSyn):
                op.regions = [x]
        return op

    def llvm_addressof(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "llvm.mlir.addressof")
        op.attrs["global_name"] = SymbolRefAttr(str(c[1]), self.sp(c[1]))
        self._trailing(op, c[2:])
        op.result_types = list(op.operand_types or [])[:1]
        op.operand_types = []
        return op

    def llvm_nullary(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c)
        self._trailing(op, c[1:])
        op.result_types = list(op.operand_types or [])[:1]
        op.operand_types = []
        return op


LINKAGES = frozenset(
    {"private", "internal", "available_externally", "linkonce", "weak", "common", "appending", "extern_weak", "linkonce_odr", "weak_odr", "external"}
)
