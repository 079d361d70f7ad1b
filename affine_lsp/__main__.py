import sys

from affine_lsp.cli import entry

sys.exit(entry())
