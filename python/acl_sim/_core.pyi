# Type stubs for the extension module: the top level and acl.rt / acl.util are
# described in the `acl` stubs; other submodules are typed loosely.
from typing import Any

from acl import *  # noqa: F401,F403
from acl import rt as rt
from acl import util as util

def __getattr__(name: str) -> Any: ...
