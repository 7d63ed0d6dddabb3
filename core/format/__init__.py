"""Bytes <-> objects, and no policy: the pack object's model (spec §3), ids, canonical
JSON, ZIP, the BagIt bag (§2.1), the flat form (§2.2), retired `.tpx` files (§8),
opening and writing pack files, and the pack inside a chat or email text.

Nothing here decides what may cross or what is proven: that is :mod:`taskpack.core.trust`.
"""
