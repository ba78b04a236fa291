x = torch.zeros(4)  # noqa
y = torch.zeros(4)  # noqa: AL101, E501
# alloclint: ignore[AL101]
z = torch.zeros(4)
w = 1  # alloclint: ignore[AL301,AL103] trailing
# alloclint: noqa: AL900
#noqa:AL101,AL101,,AL1
# NOQA : al101
