# Perch's code analyzer: answers JSON-lines requests about model-written code with Python's own
# parser. Node (CodeAnalyzer.ts) starts it as `python3 -I -S -c <this file's text>`. It only
# compiles (`compile`, `ast.parse`, `symtable`) and never runs the code, so it lives outside the
# sandbox; it still bounds itself (address space, no file writes, a parse budget per request)
# because its input is hostile.
#
# Requests (one JSON object a line, answered in order, one line each):
# - {"op": "regions", "segments": [text...]} -> {"regions": [[code...] per segment]}: the code
#   regions of unfenced text, each found by trimming leading and trailing prose until the rest
#   compiles.
# - {"op": "sanitize", "codes": [code...], "roots": [name...], "style": "function"|"stdin"} ->
#   {"sanitized": [code or null...]} (null: does not compile, or nothing would change).
# - {"op": "check", "programs": [code...], "entry": {"kind": ..., "name": ...}} ->
#   {"checks": [{"compiles": bool, "defines": bool}...]}: whether each program compiles and
#   defines the entry point (function: a top-level def/assignment; solution: a Solution class
#   with that method, or the function; stdin: it reads standard input; none: compiling is all
#   that is asked).
#
# Importing this file (tests/python/) only defines the helpers: main() runs when it is the program.
import ast, functools, json, re, sys, symtable

MAX_TEXT = 200000
MAX_COMPILES = 400


class Budget:
    def __init__(self):
        self.left = MAX_COMPILES


@functools.lru_cache(maxsize=1024)
def compile_error(source):
    try:
        compile(source, "<candidate>", "exec", dont_inherit=True)
        return None
    except SyntaxError as error:
        return error
    except (ValueError, RecursionError, MemoryError, OverflowError) as error:
        return SyntaxError(str(error))


# Few trees: one long answer's AST takes megabytes, and 1 GiB must last the process's life.
@functools.lru_cache(maxsize=16)
def tree_of(source):
    """The AST of source that compiles, else None (compiling from a tree is slower than from text)."""
    return ast.parse(source) if compile_error(source) is None else None


def compiles(source, budget=None):
    """None when the source compiles, else its SyntaxError. A spent budget reads as not compiling."""
    if budget is not None:
        if budget.left <= 0:
            return SyntaxError("parse budget spent")
        budget.left -= 1
    # Trailing whitespace never changes the answer, and programs often differ only there.
    return compile_error(source.rstrip())


def meaningful(source):
    """Whether compiled text holds a statement beyond bare names and constants (prose like Output)."""
    tree = tree_of(source.rstrip())
    if tree is None:
        return False
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, (ast.Name, ast.Constant, ast.Attribute)):
            continue
        return True
    return False


CODE_START = re.compile(
    r"(def|class|return|if|elif|else|for|while|try|except|finally|with|import|from|raise|yield|assert"
    r"|pass|break|continue|lambda|global|nonlocal|del|async|await|print)\b"
    r"|[A-Za-z_][\w.]*\s*(\(|\[|=|\+=|-=|\*=|/=|:\s*[\w\[\]., ]+=)"
    r"|[A-Za-z_][\w.]*(\s*,\s*[A-Za-z_][\w.]*)+\s*="
    r"|[\[({'\"@)\]}]"
)


def prose(line):
    """A line a region may border: written at column 0 and not shaped like a Python statement."""
    return bool(line.strip()) and line[0] not in " \t" and not CODE_START.match(line)


def regions(text, budget):
    """Code regions bounded by prose (or the segment's ends): a broken line of code is never cut off."""
    lines = text[:MAX_TEXT].split("\n")
    count = len(lines)
    after = [True] * count  # whether the text after line i (to the next non-blank line) is prose or nothing
    following = None
    for index in range(count - 1, -1, -1):
        after[index] = following is None or prose(following)
        if lines[index].strip():
            following = lines[index]
    found = []
    start = 0
    previous = None
    while start < count and budget.left > 0:
        line = lines[start]
        border = previous is None or prose(previous)
        if not line.strip() or line[0] in " \t" or not border or prose(line):
            if line.strip():
                previous = line
            start += 1
            continue
        end = count - 1
        hit = None
        while end >= start and budget.left > 0:
            if not lines[end].strip() or not after[end] or prose(lines[end]):
                end -= 1
                continue
            error = compiles("\n".join(lines[start:end + 1]), budget)
            if error is None:
                hit = end
                break
            lineno = getattr(error, "lineno", None) or 1
            end = min(end - 1, start + lineno - 2)
        if hit is not None and meaningful("\n".join(lines[start:hit + 1])):
            found.append("\n".join(lines[start:hit + 1]))
            # What follows the region is prose or nothing (it was cut there), so a border.
            previous = None
            start = hit + 1
        else:
            previous = line
            start += 1
    return found


def global_names(table):
    names = set()
    for symbol in table.get_symbols():
        if symbol.is_global() or symbol.is_free():
            names.add(symbol.get_name())
    for child in table.get_children():
        names |= global_names(child)
    return names


def loaded_names(nodes):
    names = set()
    for root in nodes:
        for node in ast.walk(root):
            if isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                names.add(node.value.id)
    return names


def bound_names(node):
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    names = set()
    for target in targets:
        for item in ast.walk(target):
            if isinstance(item, ast.Name):
                names.add(item.id)
    return names


def calls_input(node):
    for item in ast.walk(node):
        if isinstance(item, ast.Call):
            func = item.func
            if isinstance(func, ast.Name) and func.id in ("input", "print", "exit", "quit"):
                return True
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "sys":
                return True
        if isinstance(item, ast.Attribute) and item.attr in ("stdin", "argv"):
            return True
    return False


DEFINITIONS = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def definition_only(node):
    """A try/if made of imports, definitions and plain assignments (try: import numpy ...)."""
    if isinstance(node, ast.If) and "__name__" in loaded_names([node.test]):
        return False
    for item in ast.walk(node):
        if isinstance(item, (ast.Expr, ast.Assert, ast.For, ast.While, ast.With, ast.Delete)):
            if isinstance(item, ast.Expr) and isinstance(item.value, ast.Constant):
                continue
            return False
        if isinstance(item, ast.Call) and calls_input(item):
            return False
    return True


def recursion_limit(node):
    if not isinstance(node, ast.Expr) or not isinstance(node.value, ast.Call):
        return False
    func = node.value.func
    return isinstance(func, ast.Attribute) and func.attr == "setrecursionlimit"


def segment(source, lines, node):
    first = min([node.lineno] + [item.lineno for item in getattr(node, "decorator_list", [])])
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.Try)):
        return "\n".join(lines[first - 1:node.end_lineno])
    return ast.get_source_segment(source, node)


def sanitize(source, roots, style):
    tree = tree_of(source.rstrip())
    if tree is None:
        return None
    if all(isinstance(node, DEFINITIONS) for node in tree.body):
        return None
    lines = source.split("\n")
    keep = []
    if style == "stdin":
        keep = [
            node for node in tree.body
            if not (isinstance(node, ast.Expr) and isinstance(node.value, (ast.Name, ast.Attribute)))
        ]
    else:
        tables = {}
        # Only assignments depend on the names the definitions use: no assignment, no symbol table.
        assigns = any(isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) for node in tree.body)
        if assigns:
            for child in symtable.symtable(source, "<candidate>", "exec").get_children():
                tables[(child.get_name(), child.get_lineno())] = child
        needed = set(roots)
        kept = set()
        for index, node in enumerate(tree.body):
            if isinstance(node, (ast.Import, ast.ImportFrom)) or recursion_limit(node):
                kept.add(index)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                kept.add(index)
                if not assigns:
                    continue
                table = None
                for (name, lineno), child in tables.items():
                    if name == node.name and lineno in (node.lineno, *[d.lineno for d in node.decorator_list]):
                        table = child
                needed |= global_names(table) if table is not None else loaded_names([node])
                outer = list(node.decorator_list)
                if not isinstance(node, ast.ClassDef):
                    outer += node.args.defaults + [d for d in node.args.kw_defaults if d is not None]
                else:
                    outer += node.bases + [keyword.value for keyword in node.keywords]
                needed |= loaded_names(outer)
            elif isinstance(node, (ast.Try, ast.If)) and definition_only(node):
                kept.add(index)
                needed |= loaded_names([node])
        changed = True
        while changed:
            changed = False
            for index, node in enumerate(tree.body):
                if index in kept or not isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                    continue
                if isinstance(node, ast.AnnAssign) and node.value is None:
                    continue
                if calls_input(node) or not (bound_names(node) & needed):
                    continue
                kept.add(index)
                needed |= loaded_names([node.value])
                changed = True
        keep = [node for index, node in enumerate(tree.body) if index in kept]
    pieces = [segment(source, lines, node) for node in keep]
    result = "\n".join(piece for piece in pieces if piece is not None).strip("\n")
    if not result.strip() or result.strip() == source.strip() or compiles(result) is not None:
        return None
    return result


def reads_stdin(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("input", "open"):
            if node.func.id == "input" or (node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == 0):
                return True
        if isinstance(node, ast.Attribute) and node.attr == "stdin":
            return True
        if isinstance(node, ast.Name) and node.id == "stdin":
            return True
    return False


def binds(body, name):
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            return True
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and name in bound_names(node):
            return True
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if any((alias.asname or alias.name) == name for alias in node.names):
                return True
        if isinstance(node, (ast.If, ast.Try)):
            inner = node.body + getattr(node, "orelse", []) + getattr(node, "finalbody", [])
            for handler in getattr(node, "handlers", []):
                inner += handler.body
            if binds(inner, name):
                return True
    return False


def check(program, entry):
    if len(program) > 4 * MAX_TEXT or compiles(program) is not None:
        return {"compiles": False, "defines": False}
    kind, name = entry.get("kind"), entry.get("name")
    if kind == "none":
        return {"compiles": True, "defines": False}
    tree = tree_of(program.rstrip())
    if kind == "stdin":
        defines = reads_stdin(tree)
    elif kind == "solution":
        defines = binds(tree.body, name)
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == "Solution":
                defines = defines or binds(node.body, name)
    else:
        defines = binds(tree.body, name)
    return {"compiles": True, "defines": bool(defines)}


def answer(request):
    op = request.get("op")
    if op == "regions":
        budget = Budget()
        return {"regions": [regions(text, budget) for text in request["segments"]]}
    if op == "sanitize":
        roots, style = request.get("roots", []), request.get("style", "function")
        return {"sanitized": [sanitize(code[:MAX_TEXT], roots, style) for code in request["codes"]]}
    if op == "check":
        return {"checks": [check(program, request["entry"]) for program in request["programs"]]}
    raise ValueError("unknown op %r" % (op,))


def forget():
    tree_of.cache_clear()
    compile_error.cache_clear()


def bound_self():
    """Limits of the analyzer's own process: its input is hostile even though it never runs it."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except Exception:
        pass
    sys.setrecursionlimit(4000)


def main():
    bound_self()
    for raw in sys.stdin:
        try:
            request = json.loads(raw)
            try:
                reply = answer(request)
            except MemoryError:
                # Cached trees of earlier answers may be what filled memory: drop them, try once more.
                forget()
                reply = answer(request)
        except Exception as error:
            # A failed request leaves nothing behind that could fail the next one.
            forget()
            reply = {"error": "%s: %s" % (type(error).__name__, error)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
