# A debugging sink with a method of the same name, unrelated to the layer's
# finalize classes: it reads what it is given.
class DebugSink:
    def __init__(self):
        self.seen = []

    def finalize(self, out, expert_out):
        self.seen.append(float(out.sum()) + float(expert_out.sum()))
