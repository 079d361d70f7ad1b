import sys

from affine_lsp.cli import main

sys.exit(main())
