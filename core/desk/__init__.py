"""One desk: the store (an interface, with the embedded SQLite + blob folder behind it),
the outbox ledger, health and backups, the task lifecycle, identity, review, accept
(land / merge), export, restore and the authoring rules.

Built on :mod:`taskpack.core.trust` and :mod:`taskpack.core.format`.
"""
