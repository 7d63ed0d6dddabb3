"""The team desk: one PostgreSQL database shared by several people, machines, agents and
server processes (``TASKPACK_STORE=postgresql://…``). A
:class:`~taskpack.core.desk.store.Store` like the embedded desk, so landing, review and
the front ends do not know which one they use.

* :mod:`.choose`   which store a desk opens; :mod:`.url` its URL read and in words; :mod:`.connect`
  the pool, one-line errors naming the store (never the password)
* :mod:`.schema`   versioned migrations under an advisory lock; :mod:`.roles` what a
  member and an admin may do; :mod:`.members` `taskpack store grant`
* :mod:`.pg_store` reads; :mod:`.pg_tx` the write transaction; :mod:`.pg_blobs` luggage
  in chunks; :mod:`.listen` LISTEN/NOTIFY for changes made elsewhere
* :mod:`.migrate`  copy an embedded desk into a team desk; :mod:`.doctor` its checks;
  :mod:`.a2a_ledger` the A2A binding's tables (its queries: ``app/ledger_rules.py``)

The modules stand in layers (pyproject's import-linter contracts): none imports one above
it, and none imports the A2A binding or the command line.
"""
