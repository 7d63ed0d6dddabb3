"""TaskPack's core: the format, the trust rules and one desk, in pure Python.

A library a third party embeds: importing it changes nothing in the importing process
(no module stood in for another, no interpreter setting touched). Start-up measures
belong to the programs that own their process (`taskpack.app.cli.entry`).
"""
