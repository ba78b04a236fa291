"""A package whose extension, xeng._C, is built from csrc/xeng_ops.cpp."""
