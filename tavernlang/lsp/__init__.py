"""`tav lsp`: a language server for rules files (pygls, the optional [lsp] extra).

:mod:`.analysis` works out what the server says (diagnostics, names, places) with no protocol
in it; :mod:`.server` speaks the Language Server Protocol over stdin and stdout.
"""
from __future__ import annotations

import sys

EXTRA_HINT = "pip install 'tavernlang[lsp]'"


def main() -> int:
    """Serve over stdio until the client says exit; 2 (a usage error) without the extra."""
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
        from .server import serve
    except ImportError as e:
        missing = getattr(e, "name", None) or str(e)
        print(f"tav lsp: the language server needs the [lsp] extra ({missing} is not installed): {EXTRA_HINT}",
              file=sys.stderr)
        return 2
    serve()
    return 0
