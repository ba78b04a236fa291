from moekern.ops import align_block

__all__ = ["align_block"]
