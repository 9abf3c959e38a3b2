"""Shardwise: checks distributed-training configs (Accelerate, DeepSpeed, Megatron).

The commands are JavaScript bundles run on Node.js; see ``shardwise._launcher``.
"""

from ._version import __version__

__all__ = ["__version__"]
