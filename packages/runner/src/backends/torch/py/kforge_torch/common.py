# Shared by the inspector and the harness (both trusted code; both run inside a sandbox because the problem
# file they execute may come from an operator's folder): reading a KernelBench-format file and re-executing
# it with its module-level integer constants replaced.
import ast
import types

SCALE_MIN = 32  # constants below this are never scaled (dims, kernel sizes, strides, small channel counts)
SCALE_FLOOR = 16  # a scaled constant never goes below this
FROZEN_NAME_HINTS = ("group", "head", "dim_index", "reduce_dim", "kernel", "stride", "padding", "dilation")


def int_constants(tree):
    """Module-level `name = <int literal>` (and `a = b = <int>`) assignments, in file order."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            v = node.value.value
            if isinstance(v, int) and not isinstance(v, bool):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        out[t.id] = v
    return out


def float_constant(tree, name):
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            v = node.value.value
            if isinstance(v, float) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
                return v
    return None


class _Rewrite(ast.NodeTransformer):
    def __init__(self, consts):
        self.consts = consts

    def visit_Module(self, node):
        for stmt in node.body:
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant):
                names = [t.id for t in stmt.targets if isinstance(t, ast.Name)]
                hit = [n for n in names if n in self.consts]
                if hit and isinstance(stmt.value.value, int) and not isinstance(stmt.value.value, bool):
                    stmt.value = ast.copy_location(ast.Constant(self.consts[hit[0]]), stmt.value)
        return node


def split_chained(tree):
    """`a = b = 5` -> `a = 5; b = 5`, so each constant can be scaled on its own."""
    body = []
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) > 1
            and isinstance(node.value, ast.Constant)
            and all(isinstance(t, ast.Name) for t in node.targets)
        ):
            for t in node.targets:
                a = ast.Assign(targets=[t], value=ast.Constant(node.value.value))
                body.append(ast.copy_location(a, node))
        else:
            body.append(node)
    tree.body = body
    return ast.fix_missing_locations(tree)


def load_module(source, file_name, consts=None, name="kf_problem"):
    """Executes the problem file as a fresh module, its integer constants replaced by `consts`."""
    tree = split_chained(ast.parse(source, filename=file_name))
    if consts:
        tree = ast.fix_missing_locations(_Rewrite(consts).visit(tree))
    code = compile(tree, file_name, "exec")
    mod = types.ModuleType(name)
    mod.__file__ = file_name
    exec(code, mod.__dict__)
    for attr in ("Model", "get_inputs", "get_init_inputs"):
        if not hasattr(mod, attr):
            raise ValueError(f"{file_name} defines no {attr}")
    return mod


def tolerance_of(source):
    tree = ast.parse(source)
    atol = float_constant(tree, "atol")
    rtol = float_constant(tree, "rtol")
    return {"atol": atol if atol is not None else 1e-4, "rtol": rtol if rtol is not None else 1e-4}
