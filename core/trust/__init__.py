"""What may cross and what is proven: refusals and the byte scanner (spec §4.1), sealing
and the restore rule (§4.2), imperative sentences and visible text (§4.5), ask lint
(§4.3), the repairs landing forgives, the strict judge (§6, C0–C10), and the one function
that writes a pack (:mod:`taskpack.core.trust.pack_writer`).

Built on :mod:`taskpack.core.format`; knows nothing of a desk or its store.
"""
