# A module the oracle imports but does not give the tool: its constants are
# what a project imports from a package dispatchtool does not read (torchao's
# e4m3_dtype, chosen at import from the GPU).
import torch

e4m3_dtype = torch.float8_e4m3fn

# Names of operators a project would define in a loop (none here).
no_variants = ()
