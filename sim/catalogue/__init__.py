"""Parse and validate the designers' files (``cards/``) once, into typed NumPy catalogues.

Every loader reports *every* problem it finds as a :class:`~sim.catalogue.diagnostics.Problem`
(file, line, field, message) and raises :class:`~sim.catalogue.diagnostics.InputError` at the end,
so a designer fixes a whole file in one pass instead of one error per run.
"""
