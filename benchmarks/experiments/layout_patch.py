"""The layout experiment (docs/engine.md): Little Tavern's center kept in card order (characters
then events), no shuffle; a draw of one kind at random picks in its run (bisection) and removes by
index; any(x in center where x is K) in O(1). Rewrites the generated text: an experiment only."""
def _shuffle(z, r):  # the center's order is never read: no shuffle
    pass
DEL = True
def _patch(g, ns):
    src = "\n".join(g.gen_source)
    fns = {m.group(1): m.group(0) for m in re.finditer(r"^def (_e\d+)\(.*?\n(?=def |\Z)", src + "\n", re.M | re.S)}
    new = {}
    for name, f in fns.items():
        if "st.zones[st.zbase[0]]" not in f:
            continue
        f2 = f
        # rejection-sampling draws from the center
        pat = re.compile(r"(?P<i>[ ]*)(?P<z>_t\d+) = st\.zones\[st\.zbase\[0\]\]\n(?P=i)(?P<o>_t\d+) = None\n(?P=i)(?P<n>_t\d+) = len\((?P=z)\)\n(?P=i)if (?P=n):\n(?P=i)    (?P<r>_t\d+) = st\.rng\.random\n(?P=i)    for _r in range\(12\):\n(?P=i)        (?P<c>_t\d+) = (?P=z)\[_int\((?P=r)\(\) \* (?P=n)\)\]\n(?P=i)        if (?P<mask>_k\d+)\[(?P=c)\]:\n(?P=i)            (?P=o) = (?P=c)\n(?P=i)            break\n(?P=i)    else:\n.*\n.*\n")
        def draw(m):
            i, z, o, mask = m.group("i"), m.group("z"), m.group("o"), m.group("mask")
            lo, hi = ("0", f"_bisect_left({z}, 44)") if mask == "_k95" else (f"_bisect_left({z}, 44)", f"len({z})")
            return (f"{i}{z} = st.zones[st.zbase[0]]\n{i}_lo = {lo}\n{i}_hi = {hi}\n{i}{o} = None\n"
                    f"{i}if _hi > _lo:\n{i}    _ix = _lo + _int(st.rng.random() * (_hi - _lo))\n{i}    {o} = {z}[_ix]\n"
                    + (f"{i}    del {z}[_ix]\n{i}    st.loc[{o}] = -1\n" if DEL else ""))
        f2 = pat.sub(draw, f2)
        # any(x in center where x is K)
        pat2 = re.compile(r"(?P<i>[ ]*)(?P<t>_t\d+) = False\n(?P=i)for (?P<v>_v\d+) in st\.zones\[st\.zbase\[0\]\]:\n(?P=i)    if (?P<mask>_k\d+)\[(?P=v)\]:\n(?P=i)        (?P=t) = True\n(?P=i)        break\n")
        def anyk(m):
            i, t, mask = m.group("i"), m.group("t"), m.group("mask")
            end = "0" if mask == "_k95" else "-1"
            return f"{i}_zc = st.zones[st.zbase[0]]\n{i}{t} = bool(_zc) and {mask}[_zc[{end}]]\n"
        f2 = pat2.sub(anyk, f2)
        if f2 != f:
            new[name] = f2
    for name, f in new.items():
        exec(compile(f.replace(f"def {name}(", f"def _X{name}("), "<patched>", "exec"), ns)
        ns[name].__code__ = ns[f"_X{name}"].__code__
    print("patched", sorted(new))
