"""affine-lsp: a language server, CLI and VS Code extension for MLIR's affine dialect."""

__version__ = "0.1.0"
