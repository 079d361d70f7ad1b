"""The source of a file: its text, cut into chunks, their cached parses and
the IR of each ``// -----`` section (:class:`~affine_lsp.source.document.Document`,
with :class:`~affine_lsp.source.document.LineIndex`, offsets to lines and
columns), and the scratch documents a computation makes for itself
(:mod:`.scratch`). Above :mod:`affine_lsp.syntax` and :mod:`affine_lsp.ir`
(it parses and builds), below :mod:`affine_lsp.verify` and everything that
reads a document."""
