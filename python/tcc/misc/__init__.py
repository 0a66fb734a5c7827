"""pytensor.misc: pkl_utils."""
from . import pkl_utils  # noqa: F401
