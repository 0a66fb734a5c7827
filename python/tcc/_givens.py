"""`givens` whose replacements read the variables they replace.

tcc applies `givens` as it walks a graph: wherever the graph reads a
replaced variable, it reads the replacement. That is PyTensor's rule as long
as no replacement reads a replaced variable. PyTensor takes a replacement as
it is, so `givens={a: a + 10}` reads the old `a` inside `a + 10`, while a
walk that replaces everywhere would go round in a circle. For such givens,
`function` rebuilds the graph once with the replacements put in (this
module), and compiles it without givens.
"""

from ._graph import Variable
from ._graphfile import _topological


def reads_a_replaced_variable(givens):
    """Whether some replacement's graph reads a variable that `givens`
    replaces."""
    keys = {k.id for k in givens}
    return any(v.id in keys for value in givens.values()
               for v in _topological([value], {}))


class Replacer:
    """Rebuilds graphs with the replacements of `givens` put in: the nodes
    above a replaced variable are new, the replacements are taken as they
    are, and a gradient's cost, variables and constants go with it."""

    def __init__(self, givens):
        self._givens = {k.id: v for k, v in givens.items()}
        self._new = {}  # id of a node -> the node that stands for it
        self._groups = {}  # id of a grad group -> its rebuilt group

    def __call__(self, root):
        if root is None:
            return None
        if root.id in self._givens:
            return self._givens[root.id]
        keys = set(self._givens)
        for v in _topological([root], {}, keys):
            if v.id in self._new:
                continue
            if v.id in self._givens:
                self._new[v.id] = self._givens[v.id]
                continue
            inputs = tuple(self._new.get(i.id, i) for i in v.inputs)
            if v.op == "grad_part":
                self._new[v.id] = self._grad_part(v, inputs)
            elif any(a is not b for a, b in zip(inputs, v.inputs)):
                self._new[v.id] = Variable(v.op, inputs, dict(v.params), v.dtype, v.ndim,
                                           v.name, v.loc, v.static_shape)
            else:
                self._new[v.id] = v
        return self._new[root.id]

    def _grad_part(self, v, inputs):
        group = v.params["group"]
        new = self._groups.get(id(group))
        if new is None:
            cost, wrt = self(group.cost), [self(w) for w in group.wrt]
            constants = [self._new.get(c.id, c) for c in group.constants]
            same = cost is group.cost and all(
                a is b for a, b in zip(wrt + constants, group.wrt + group.constants))
            new = group if same else type(group)(cost, wrt, constants)
            self._groups[id(group)] = new
        if new is group:
            return v
        return Variable("grad_part", inputs, {"group": new, "index": v.params["index"]},
                        v.dtype, v.ndim, v.name, v.loc, v.static_shape)
