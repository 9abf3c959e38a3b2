from .args import Args

__all__ = ["Args"]
