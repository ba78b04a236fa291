"""A stand-in for mlx.core (Apple's array library, not on Linux): enough
for fixtures that build its arrays. Its arrays are NumPy's here; what the
fixtures test is that alloclint never takes them for tensors."""
import numpy

exp = numpy.exp
array = numpy.array
