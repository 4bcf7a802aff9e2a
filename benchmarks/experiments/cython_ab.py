"""An experiment, not the product (docs/engine.md, "Tried, measured, and not kept"): a game's
playout flavour with its generated functions compiled by Cython and rebound in place, against
the plain one, on the same seeds. Needs `pip install cython` and gcc with Python's headers.

    python benchmarks/experiments/cython_ab.py little_tavern 4 1500
"""
import sys, os, re, types, importlib.util, hashlib, time, subprocess
ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tavernlang import compile_file

def cythonize_game(path, tag):
    g = compile_file(path).playouts()
    ns = g.namespace
    names = [k for k in ns if k != "__builtins__" and not re.fullmatch(r"_e\d+|_dp\d+", k)]
    body = "\n".join(g.gen_source)
    defined = set(re.findall(r"^def (_\w+)\(", body, re.M))
    used = set(re.findall(r"\b(_dp\d+|_e\d+)\b", body)) - defined
    names += sorted(used - set(names))
    src = "\n".join(f"{k} = None" for k in names) + "\n" + body
    d = f"/tmp/tav-cython-ab/{tag}"
    os.makedirs(d, exist_ok=True)
    mod = f"tavgen_{tag}"
    open(f"{d}/{mod}.py", "w").write(src)
    t = time.time()
    if not os.path.exists(f"{d}/done"):
        r = subprocess.run([sys.executable, "-m", "cython", "-3", "--fast-fail", f"{mod}.py"],
                           cwd=d, capture_output=True, text=True)
        if r.returncode: print(r.stderr[-3000:]); sys.exit(1)
        inc = __import__("sysconfig").get_paths()["include"]
        r = subprocess.run(["gcc", "-shared", "-fPIC", "-O2", f"-I{inc}", f"{mod}.c", "-o", f"{mod}.so"], cwd=d, capture_output=True, text=True)
        if r.returncode: print(r.stderr[-3000:]); sys.exit(1)
        open(f"{d}/done", "w").write("1")
    print("compile", round(time.time() - t, 1), "s", file=sys.stderr)
    spec = importlib.util.spec_from_file_location(mod, f"{d}/{mod}.so")
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
    # the module's globals: the namespace's constants and helpers
    for k, v in ns.items():
        if k not in m.__dict__ or not re.fullmatch(r"_e\d+", k):
            if k != "__builtins__": m.__dict__[k] = v
    fmap = {}
    for k, v in list(ns.items()):
        if re.fullmatch(r"_e\d+|_dp\d+", k) and isinstance(v, types.FunctionType) and hasattr(m, k):
            fmap[id(v)] = getattr(m, k)
    for k, v in list(ns.items()):
        if isinstance(v, types.FunctionType) and id(v) in fmap: ns[k] = m.__dict__[k] = fmap[id(v)]
    seen = set()
    def sub(x):
        if isinstance(x, types.FunctionType):
            if id(x) in fmap: return fmap[id(x)]
            if x.__defaults__: x.__defaults__ = tuple(sub(a) for a in x.__defaults__)
            if x.__closure__:
                for c in x.__closure__:
                    try: c.cell_contents = sub(c.cell_contents)
                    except ValueError: pass
            return x
        if id(x) in seen: return x
        seen.add(id(x))
        if isinstance(x, list):
            for i, a in enumerate(x): x[i] = sub(a)
        elif isinstance(x, tuple):
            new = tuple(sub(a) for a in x)
            return new if any(a is not b for a, b in zip(new, x)) else x
        elif isinstance(x, dict):
            for k2 in list(x): x[k2] = sub(x[k2])
        elif hasattr(x, "__slots__") and type(x).__module__.startswith("tavernlang.engine"):
            for s in type(x).__slots__:
                if hasattr(x, s): setattr(x, s, sub(getattr(x, s)))
        elif hasattr(x, "__dict__") and type(x).__module__.startswith("tavernlang.engine") and not isinstance(x, type):
            for k2, v2 in list(vars(x).items()):
                if k2 not in ("_compiler", "model", "gen_source"): setattr(x, k2, sub(v2))
        return x
    sub(g)
    for k, v in list(ns.items()):
        if k.startswith("_k"): ns[k] = m.__dict__[k] = sub(v)
    return g

if __name__ == "__main__":
    from tavernlang import playout
    game = sys.argv[1]; n = int(sys.argv[2]); N = int(sys.argv[3])
    path = str(ROOT / "games" / f"{game}.tav")
    base = compile_file(path)
    cy = cythonize_game(path, game)
    for s in range(100):
        a = playout(base, n, s); b = playout(cy, n, s)
        if a != b: print("DIFF", s, a, b); break
    else: print("same 100 seeds")
    res = {"py": [], "cy": []}
    for r in range(5):
        for k, gg in (("py", base), ("cy", cy)):
            t = time.process_time()
            for s in range(N): playout(gg, n, s)
            res[k].append(N / (time.process_time() - t))
    for k, v in res.items(): v.sort(); print(k, "median", round(v[2]), "best", round(v[-1]))
    print("x", round(res["cy"][2] / res["py"][2], 2))
