# A package of registration helpers and their callers, for
# tests/oracle/py_reader_oracle.py: modules import helpers from each other, as
# projects' ops modules import a project-wide register helper.
