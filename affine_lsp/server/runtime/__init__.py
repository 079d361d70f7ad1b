"""The server's runtime, apart from its answers: the worker threads of each
document (:mod:`.lanes`), the dataflow worker process (:mod:`.flowproc`),
the memory and garbage-collection policy (:mod:`.memory`), freeing a closed
document without a collection (:mod:`.reclaim`), the disk cache of
diagnostics (:mod:`.persist`) and the start before pygls is loaded
(:mod:`.early_initialize`, :mod:`.early_open`). The fork protocol they use
is :mod:`affine_lsp.forking`; the pause of the collector,
:mod:`affine_lsp.gc_pause`."""
