"""``python -m shardwise`` is the ``shardwise`` command."""

from ._launcher import cli

if __name__ == "__main__":
    cli()
