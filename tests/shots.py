"""Where the tests keep the screens they save for a person to look at: a folder of the user's
own under the system's temporary folder (another user's folder of the same name may be there,
and not writable)."""

import os
import tempfile
from pathlib import Path


def shots(name: str) -> Path:
    return Path(tempfile.gettempdir()) / f"{name}-{os.getuid()}"
