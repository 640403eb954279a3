# custom_op forms torch 2.14 has and 2.6 does not (tags=, register_autocast,
# builtin generics in annotations), for tests/oracle/py_reader_oracle.py.
import collections.abc

import torch


@torch.library.custom_op("pyr_new::tagged", mutates_args=(), tags=(torch.Tag.pointwise,))
def tagged(x: torch.Tensor, sizes: list[int], ys: collections.abc.Sequence[torch.Tensor],
           o: torch.Tensor | None = None) -> list[torch.Tensor]:
    return [x]


torch.library.register_autocast("pyr_new::tagged", "cpu", torch.float16)
tagged.register_autocast("cuda", torch.float16)
