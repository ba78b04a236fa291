s = """
x = torch.zeros(3)
"""; b = torch.zeros(3)
b.copy_(torch.ones(3))
