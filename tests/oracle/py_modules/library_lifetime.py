# A Library's registrations last as long as the Python object (torch/library.py:
# weakref.finalize removes them when it is freed), for
# tests/oracle/py_reader_oracle.py: imported into the real torch 2.6 and 2.14,
# and read by dispatchtool; the dumps of every operator must agree, and the
# Libraries freed before the import ends are said where they are made.
import torch
from torch.library import Library

NS = "pyr_life"

# A temporary: freed once the statement has run, and its definition with it.
Library(NS, "FRAGMENT").define("temporary(Tensor x) -> Tensor")  # dispatchtool: warns a temporary, freed once
torch.library.Library(NS, "FRAGMENT").define("chained(Tensor x) -> Tensor")  # dispatchtool: warns 1 registration


def register_locally():
    lib = Library(NS, "FRAGMENT")  # dispatchtool: warns a local of register_locally(), freed when it returns
    lib.define("local(Tensor x) -> Tensor")
    lib.impl("local", lambda x: x, "CPU")


register_locally()
register_locally()  # a second definition is no error: the first Library is gone


kept = Library(NS, "FRAGMENT")
kept.define("kept(Tensor x) -> Tensor")
kept.impl("kept", lambda x: x, "CPU")
# A kernel of an operator whose Library is gone stays with the Library it is registered through.
kept.impl("local", lambda x: x, "CPU")

holder = []


def register_and_keep():
    lib = Library(NS, "FRAGMENT")
    lib.define("kept_in_list(Tensor x) -> Tensor")
    holder.append(lib)  # escapes: kept


def register_and_return():
    lib = Library(NS, "FRAGMENT")
    lib.define("returned(Tensor x) -> Tensor")
    return lib


def register_through_api():
    lib = Library(NS, "FRAGMENT")
    lib.define("through_api(Tensor x) -> Tensor")
    torch.library.impl(lib, "through_api", "CPU")(lambda x: x)
    return lib


register_and_keep()
returned = register_and_return()
through_api = register_through_api()


class Holder:
    lib = Library(NS, "FRAGMENT")  # a class attribute: the class keeps it
    lib.define("held(Tensor x) -> Tensor")


def register_if(flag):
    if flag:
        lib = Library(NS, "FRAGMENT")  # dispatchtool: warns a local of register_if(), freed when it returns
        lib.define("maybe(Tensor x) -> Tensor")


register_if(bool(Holder.lib))
