#!/usr/bin/env python3
"""Bootstrap the MPI spec tables (mpi/spec/*.txt) from a local copy of the reference ABI header.

Usage: extract.py REF_MPI_H COMMIT OUTDIR

REF_MPI_H is a copy of mpi.h from mpi-forum/mpi-abi-stubs kept outside the repository (for
example under /tmp); COMMIT is the reference commit it was taken from. The tables it writes are
nexar's own format (see the header comment of each file) and are reviewed and edited by hand
afterwards: this script is a one-off bootstrap, not part of the build.
"""
import re
import sys

ref_path, commit, outdir = sys.argv[1:4]
text = open(ref_path).read()
lines = text.splitlines()

SOURCE = f"# Values match the MPI 5.0 standard ABI; checked against mpi-forum/mpi-abi-stubs mpi.h at\n# commit {commit}.\n"

types = []      # (kind, name, definition)
groups = []     # [header, [(name, value, cast, comment)]]
functions = []  # (section, deprecated, prototype)

def comment_of(line):
    m = re.search(r"/\*\s*(.*?)\s*\*/", line)
    return m.group(1) if m else ""

def title(s):
    return s.strip().rstrip(".")

pending_title = ""
i = 0
section = None
in_enum = None  # enum tag or "" for anonymous
enum_title = ""
while i < len(lines):
    raw = lines[i]
    line = raw.strip()
    i += 1
    if not line:
        continue
    if section is not None:
        if line.startswith("#if") or line.startswith("}") or line.startswith("#endif"):
            continue
        if line.startswith("/*"):
            section = title(comment_of(line))
            continue
        m = re.match(r"^(.+?)\s*;\s*(/\*.*\*/)?$", line)
        proto = m.group(1)
        dep = "-"
        c = comment_of(line)
        if c.startswith("deprecated:"):
            dep = c.split(":", 1)[1].strip()
        functions.append((section, dep, re.sub(r"\s+", " ", proto)))
        continue
    if in_enum is not None:
        if line.startswith("}"):
            in_enum = None
            continue
        if line.startswith("/*"):
            # a sub-heading inside an enum starts a new group of the same enum kind
            kind = "enum" if not groups[-1][0].startswith("[enum ") else groups[-1][0].split("]")[0] + "]"
            hdr = "[enum]" if kind == "enum" else kind
            groups.append([f"{hdr} {title(comment_of(line))}", []])
            continue
        m = re.match(r"^(\w+)\s*=\s*(-?\w+)\s*,?\s*(/\*.*\*/)?$", line)
        assert m, raw
        c = comment_of(line)
        c = c if c.startswith("deprecated") else ""
        if not groups[-1][1] and groups[-1][0].endswith("(pending)"):
            pass
        groups[-1][1].append((m.group(1), m.group(2), "", c))
        continue
    if line.startswith("/* MPI functions */"):
        section = "MPI functions"
        continue
    if line.startswith("/*"):
        pending_title = title(comment_of(line))
        continue
    if line.startswith("#if !defined(MPI_ABI_"):
        # #if !defined(MPI_ABI_X) / #define MPI_ABI_X T / #endif / typedef MPI_ABI_X MPI_X; / #undef
        t = lines[i].split()[2]
        name = lines[i + 2].split()[2].rstrip(";")
        types.append(("integer", name, t))
        i += 4
        continue
    if line.startswith("typedef struct {"):
        fields = []
        while not lines[i].strip().startswith("}"):
            fields.append(lines[i].strip().rstrip(";"))
            i += 1
        name = lines[i].strip().strip("} ;")
        i += 1
        types.append(("struct", name, "; ".join(fields)))
        continue
    m = re.match(r"^typedef struct (\w+)\s*\*\s*(\w+);$", line)
    if m:
        types.append(("handle", m.group(2), m.group(1)))
        pending_title = ""
        continue
    m = re.match(r"^typedef (\w+) \((\w+)\)\((.*)\);\s*(/\*.*\*/)?$", line)
    if m:
        c = comment_of(line)
        d = f"{m.group(1)} ({m.group(3)})"
        if c.startswith("deprecated:"):
            d += f" # {c}"
        types.append(("callback", m.group(2), d))
        continue
    m = re.match(r"^typedef (\w+) (\w+);$", line)
    if m:
        types.append(("alias", m.group(2), m.group(1)))
        continue
    m = re.match(r"^typedef enum\s+(\w+) \{$", line)
    if m:
        types.append(("enum", m.group(1), m.group(1)))
        groups.append([f"[enum {m.group(1)}] {m.group(1)} values", []])
        in_enum = m.group(1)
        continue
    if line == "enum {":
        groups.append([f"[enum] {pending_title or 'Constants'}", []])
        pending_title = ""
        in_enum = ""
        continue
    m = re.match(r"^#define (\w+)\s+(.*?)\s*(/\*.*\*/)?$", line)
    if m and m.group(1) not in ("MPI_H_ABI",):
        name, val = m.group(1), m.group(2)
        c = comment_of(line)
        c = c if c.startswith("deprecated") else ""
        hm = re.match(r"^\(\((\w+(?:\s*\*+)?)\)(-?\w+)\)$", val)
        if hm:
            cast, v = hm.group(1).replace(" ", ""), hm.group(2)
            htypes = {n for k, n, _ in types if k == "handle"}
            if cast in htypes and cast.startswith("MPI_") and not cast.startswith("MPI_T_"):
                hdr = f"[handle {cast}] Predefined {cast} handles"
            else:
                hdr = f"[define] {pending_title or 'Constants'}"
            if not groups or groups[-1][0] != hdr:
                groups.append([hdr, []])
            groups[-1][1].append((name, v, cast if hdr.startswith("[define") else "", c))
        elif groups and groups[-1][0].startswith("[handle ") and not val[0].isdigit():
            groups[-1][1].append((name, val, "", c))  # alias of a predefined handle
        else:
            hdr = f"[define] {pending_title or 'Constants'}"
            if not groups or groups[-1][0] != hdr:
                groups.append([hdr, []])
            groups[-1][1].append((name, val, "", c))
        continue
    # guards, includes, extern "C", #endif and friends carry no spec content

# Titles for groups the reference leaves without a comment (keyed by their first constant).
TITLES = {
    "MPI_VERSION": "Version of the standard and of the ABI",
    "MPI_KEYVAL_INVALID": "Invalid attribute key",
    "MPI_TAG_UB": "Predefined communicator attribute keys",
    "MPI_WIN_BASE": "Predefined window attribute keys",
    "MPI_NULL_COPY_FN": "Predefined attribute copy and delete callbacks",
    "MPI_T_VERBOSITY_USER_BASIC": "MPI_T verbosity levels",
    "MPI_T_BIND_NO_OBJECT": "MPI_T object binding",
    "MPI_T_SCOPE_CONSTANT": "MPI_T variable scopes",
    "MPI_T_PVAR_CLASS_STATE": "MPI_T performance variable classes",
}
groups = [g for g in groups if g[1]]
split = []
for hdr, items in groups:
    # the MPI_T null handles follow the callback constants without a heading of their own
    names = [n for n, *_ in items]
    if "MPI_T_ENUM_NULL" in names:
        k = names.index("MPI_T_ENUM_NULL")
        split.append([hdr, items[:k]])
        split.append(["[define] MPI_T null handles", items[k:]])
    else:
        split.append([hdr, items])
groups = split
for g in groups:
    t = TITLES.get(g[1][0][0])
    if t:
        g[0] = g[0].split("]")[0] + "] " + t

# Sections for the functions the reference lists without a heading.
SECTIONS = {"MPI_Aint_add": "Address arithmetic and timers",
            "MPI_Comm_fromint": "Handle conversion to and from Fortran INTEGERs"}
sec_override = None
fixed = []
for sec, dep, proto in functions:
    name = re.search(r"(\w+)\(", proto).group(1)
    if sec == "MPI functions" and name in SECTIONS:
        sec_override = SECTIONS[name]
    if sec != "MPI functions":
        sec_override = None
    fixed.append((sec_override or sec, dep, proto))
functions = fixed

with open(f"{outdir}/types.txt", "w") as f:
    f.write("# MPI types of the MPI 5.0 standard ABI: one type a line, `KIND NAME DEFINITION`.\n")
    f.write(SOURCE)
    f.write("#   integer  NAME CTYPE           typedef CTYPE NAME; (overridable with -DMPI_ABI_<Suffix>=T)\n")
    f.write("#   struct   NAME FIELD; FIELD...  typedef struct { FIELD; ... } NAME;\n")
    f.write("#   handle   NAME TAG             typedef struct TAG *NAME; (pointer to an incomplete struct)\n")
    f.write("#   enum     NAME NAME            typedef enum NAME {...} NAME; members in constants.txt\n")
    f.write("#   callback NAME RET (PARAMS)    typedef RET (NAME)(PARAMS);\n")
    f.write("#   alias    NAME OTHER           typedef OTHER NAME;\n")
    f.write("# A trailing `# text` is a note carried into the header as a comment.\n\n")
    for k, n, d in types:
        f.write(f"{k:<8} {n:<34} {d}\n")

with open(f"{outdir}/constants.txt", "w") as f:
    f.write("# MPI constants of the MPI 5.0 standard ABI, in groups.\n")
    f.write(SOURCE)
    f.write("# A group starts with `[KIND] Title`; each following line is `NAME VALUE [CAST] [# note]`.\n")
    f.write("#   [handle TYPE]  NAME VALUE       #define NAME ((TYPE)0x%08x)  predefined handle\n")
    f.write("#   [enum]         NAME VALUE       member of an anonymous enum (usable in switch)\n")
    f.write("#   [enum TAG]     NAME VALUE       member of typedef enum TAG (see types.txt)\n")
    f.write("#   [define]       NAME VALUE       #define NAME VALUE (usable in #if); VALUE may be\n")
    f.write("#                                   another constant's NAME (an alias)\n")
    f.write("#   [define]       NAME VALUE CAST  #define NAME ((CAST)VALUE)\n")
    for hdr, items in groups:
        f.write(f"\n{hdr}\n")
        for n, v, cast, c in items:
            row = f"{n:<36} {v}"
            if cast:
                row = f"{row:<46} {cast}"
            if c:
                row += f"  # {c}"
            f.write(row.rstrip() + "\n")

with open(f"{outdir}/functions.txt", "w") as f:
    f.write("# C functions of the MPI 5.0 standard ABI: one prototype a line, `IMPL DEPRECATED PROTOTYPE`.\n")
    f.write(SOURCE)
    f.write("# IMPL is `yes` once nexar implements the function, `no` while the generated stub returns\n")
    f.write("# MPI_ERR_UNSUPPORTED_OPERATION. DEPRECATED is `-` or the MPI version that deprecated it.\n")
    f.write("# Large-count `_c` variants are entries of their own. Every function also gets a PMPI_ twin.\n")
    f.write("# `[section] Title` lines group the prototypes in the generated header.\n")
    last = None
    for sec, dep, proto in functions:
        if sec != last:
            f.write(f"\n[section] {sec}\n")
            last = sec
        f.write(f"no  {dep:<7} {proto}\n")

print(len(types), "types;", sum(len(g[1]) for g in groups), "constants;", len(functions), "functions")
