"""The reduce actions of each dialect's ops, one module per grammar file
(``grammar/<dialect>.lark`` or the dialect's section of ``mlir.lark``), each a
mixin of :class:`~affine_lsp.syntax.parser.ChunkTransformer`."""
