
# workbench: files that are not tables are read as documents: prose, source code, slides, pages,
# images and archives. Each becomes an entry of `documents` (its lines, kept for searching) and
# a profile the engine reads; the tables inside it (an archive's CSVs, an HTML page's tables, a
# Word document's tables, an XML file's records) become frames, named after where they came from.
import ast, tarfile, tempfile, zipfile
from xml.etree import ElementTree as _ET

_PROSE = {"txt": "text", "md": "Markdown", "tex": "TeX"}
_CODE = {"py": "Python", "js": "JavaScript", "ts": "TypeScript", "java": "Java", "c": "C", "cpp": "C++",
         "cs": "C#", "php": "PHP", "rb": "Ruby", "css": "CSS", "sh": "shell"}
_IMAGES = {"png", "jpg", "jpeg", "gif"}
_MAX_MEMBERS = 200  # an archive's members read; the rest are listed only by count
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")


class Unreadable(Exception):
    """A file of a type the local engine keeps but has no reader for; its message is the
    sentence said to the user."""


def _doc(key, kind, lines, **info):
    """A document's entry: its lines as (where, text) pairs for searching, and its profile."""
    text = [t for _, t in lines]
    prof = {"key": key, "file": key, "kind": kind, "lines": len(text),
            "words": sum(len(_WORD.findall(t)) for t in text), "chars": sum(len(t) for t in text),
            "excerpt": [t for t in text if t.strip()][:6]}
    prof.update({k: v for k, v in info.items() if v not in (None, [], "", 0)})
    return {key: {"profile": prof, "lines": lines}}


def _numbered(text):
    return [(f"line {i}", l.rstrip()) for i, l in enumerate(text.splitlines(), 1)]


def _looks_tabular(text):
    """Whether a .txt holds a table: its first lines split into two or more fields alike."""
    lines = [l for l in text.splitlines()[:50] if l.strip()]
    if len(lines) < 2:
        return False
    for d in ("\t", ";", "|", ","):
        counts = [len(next(csv.reader([l], delimiter=d))) for l in lines]
        if counts[0] >= 2 and sum(c == counts[0] for c in counts) >= 0.9 * len(counts):
            return True
    return False


def _read_prose(path, key, ext):
    text = _text(path)
    if ext == "txt" and _looks_tabular(text):
        return {key: _read_csv(path)}, {}
    heads = []
    if ext == "md":
        heads = [m.group(1).strip() for m in re.finditer(r"(?m)^#{1,6}\s+(.+?)\s*#*\s*$", text)]
    elif ext == "tex":
        heads = [m.group(1).strip() for m in re.finditer(r"\\(?:part|chapter|section|subsection|subsubsection)\*?\{([^}]*)\}", text)]
    title = re.search(r"\\title\{([^}]*)\}", text) if ext == "tex" else None
    return {}, _doc(key, _PROSE[ext], _numbered(text), headings=heads, title=title.group(1) if title else None)


# Definitions and imports, per language: enough to list what a file defines and needs.
_DEFS = {
    "JavaScript": [r"(?m)^\s*(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)",
                   r"(?m)^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)"],
    "Java": [r"(?m)^\s*(?:(?:public|private|protected|static|final|abstract|synchronized)\s+)*[\w<>\[\],.]+\s+([a-zA-Z_]\w*)\s*\([^;{)]*\)\s*(?:throws\s+[\w., ]+)?\s*\{"],
    "C": [r"(?m)^[ \t]*[A-Za-z_][\w \t*]*?\b([A-Za-z_]\w*)\s*\([^;{)]*\)\s*\{"],
    "PHP": [r"(?m)function\s+&?\s*([A-Za-z_]\w*)\s*\("],
    "Ruby": [r"(?m)^\s*def\s+(?:self\.)?([\w?!=]+)"],
    "shell": [r"(?m)^\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)\s*\{", r"(?m)^\s*function\s+([A-Za-z_][\w-]*)"],
}
_DEFS["TypeScript"] = _DEFS["JavaScript"]
_DEFS["C++"] = [r"(?m)^[ \t]*[A-Za-z_][\w \t*&:<>,]*?\b([A-Za-z_~][\w:~]*)\s*\([^;{)]*\)\s*(?:const\s*)?(?:noexcept\s*)?\{"]
_DEFS["C#"] = _DEFS["Java"]
_CLASSES = r"(?m)^\s*(?:export\s+)?(?:(?:public|private|protected|abstract|final|static|sealed|partial)\s+)*(?:class|interface|struct|module)\s+([A-Za-z_]\w*)"
_IMPORTS = {
    "JavaScript": [r"""(?m)^\s*import\b[^'"\n]*['"]([^'"]+)['"]""", r"""require\(\s*['"]([^'"]+)['"]\s*\)"""],
    "Java": [r"(?m)^\s*import\s+(?:static\s+)?([\w.*]+)\s*;"],
    "C": [r"""(?m)^\s*#\s*include\s*[<"]([^>"]+)[>"]"""],
    "C#": [r"(?m)^\s*using\s+(?:static\s+)?([\w.]+)\s*;"],
    "PHP": [r"""(?m)(?:require|include)(?:_once)?\s*\(?\s*['"]([^'"]+)['"]""", r"(?m)^\s*use\s+([\w\\]+)"],
    "Ruby": [r"""(?m)^\s*require(?:_relative)?\s*\(?\s*['"]([^'"]+)['"]"""],
    "shell": [r"(?m)^\s*(?:source|\.)\s+(\S+)"],
}
_IMPORTS["TypeScript"] = _IMPORTS["JavaScript"]
_IMPORTS["C++"] = _IMPORTS["C"]
_NOT_NAMES = {"if", "for", "while", "switch", "return", "catch", "sizeof", "else", "do", "new", "delete"}


def _unique(names):
    return list(dict.fromkeys(n for n in names if n and n not in _NOT_NAMES))


def _python_outline(text):
    """Functions, classes and imports of Python source, by its syntax tree (a regular
    expression when the file does not parse)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return (_unique(re.findall(r"(?m)^\s*(?:async\s+)?def\s+(\w+)", text)),
                _unique(re.findall(r"(?m)^\s*class\s+(\w+)", text)),
                _unique(re.findall(r"(?m)^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", text)))
    funcs, classes, imports = [], [], []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            funcs.append(node.name)
        elif isinstance(node, ast.ClassDef):
            classes.append(node.name)
        elif isinstance(node, ast.Import):
            imports += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            imports.append(node.module)
    return _unique(funcs), _unique(classes), _unique(imports)


def _read_code(path, key, ext):
    text, lang = _text(path), _CODE[ext]
    if lang == "Python":
        funcs, classes, imports = _python_outline(text)
    else:
        funcs = _unique(n for p in _DEFS.get(lang, []) for n in re.findall(p, text))
        classes = _unique(re.findall(_CLASSES, text)) if lang not in ("CSS", "shell", "C") else []
        imports = _unique(n if isinstance(n, str) else next(x for x in n if x)
                          for p in _IMPORTS.get(lang, []) for n in re.findall(p, text))
    rules = len(re.findall(r"\{", re.sub(r"/\*.*?\*/", "", text, flags=re.S))) if lang == "CSS" else 0
    return {}, _doc(key, "code", _numbered(text), language=lang, functions=funcs, classes=classes,
                    imports=imports, rules=rules)


def _markup_text(root):
    """The visible text of an HTML or XML tree, a line per block."""
    for bad in list(root.iter("script", "style")):
        bad.drop_tree()
    return "\n".join(l.strip() for l in "\n".join(root.itertext()).splitlines() if l.strip())


def _read_html(path, key):
    import lxml.html
    raw = _text(path)
    root = lxml.html.fromstring(raw) if raw.strip() else None
    frames = {}
    try:
        for i, t in enumerate(pd.read_html(io.StringIO(raw)), 1):
            frames[f"{key} (table {i})"] = _clean(t.astype(str).where(t.notna(), None))
    except ValueError:  # "No tables found"
        pass
    if root is None:
        return frames, _doc(key, "HTML", [])
    heads = [" ".join(h.text_content().split()) for h in root.iter("h1", "h2", "h3", "h4", "h5", "h6")]
    title = root.findtext(".//title")
    return frames, _doc(key, "HTML", _numbered(_markup_text(root)), headings=[h for h in heads if h],
                        title=title.strip() if title else None, tables=list(frames))


def _read_xml(path, key):
    with open(path, "rb") as f:
        root = _ET.fromstring(f.read())  # the parser honours the file's declared encoding
    frames = {}
    try:
        t = pd.read_xml(path)
        if len(t) >= 1 and t.shape[1] >= 2:
            frames[key] = _clean(t.astype(str).where(t.notna(), None))
    except Exception:  # not a list of records: read as a document only
        pass
    tags = list(dict.fromkeys(el.tag for el in root.iter()))
    text = "\n".join(l.strip() for l in "\n".join(root.itertext()).splitlines() if l.strip())
    return frames, _doc(key, "XML", _numbered(text), root=root.tag, elements=sum(1 for _ in root.iter()),
                        tags=tags[:40], tables=list(frames))


def _read_docx(path, key):
    import docx
    d = docx.Document(path)
    lines, heads, frames = [], [], {}
    for i, p in enumerate(d.paragraphs, 1):
        if p.text.strip():
            lines.append((f"paragraph {i}", p.text))
            if (p.style.name or "").startswith(("Heading", "Title")):
                heads.append(p.text.strip())
    for i, t in enumerate(d.tables, 1):
        rows = [[c.text.strip() for c in r.cells] for r in t.rows]
        if len(rows) >= 2:
            frames[f"{key} (table {i})"] = _clean(pd.DataFrame(rows[1:], columns=_header(rows[0])))
    title = d.core_properties.title
    return frames, _doc(key, "Word", lines, paragraphs=len(lines), headings=heads, title=title or None,
                        tables=list(frames))


def _header(cells):
    """Column names from a header row: blanks named, repeats numbered."""
    out, seen = [], {}
    for i, c in enumerate(cells, 1):
        name = c or f"column {i}"
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} {seen[name]}")
    return out


_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"


def _read_pptx(path, key):
    """Slides' text from the package's XML: Debian has no python-pptx, and the text is all the
    analyst needs. A slide's title is its title placeholder's text, else its first line."""
    with zipfile.ZipFile(path) as z:
        names = sorted((n for n in z.namelist() if re.fullmatch(r"ppt/slides/slide\d+\.xml", n)),
                       key=lambda n: int(re.search(r"\d+", n.rsplit("/", 1)[1]).group()))
        lines, titles = [], []
        for i, n in enumerate(names, 1):
            root = _ET.fromstring(z.read(n))
            title = None
            for sp in root.iter(_P + "sp"):
                ph = sp.find(f".//{_P}ph")
                paras = ["".join(t.text or "" for t in p.iter(_A + "t")) for p in sp.iter(_A + "p")]
                paras = [p for p in paras if p.strip()]
                if ph is not None and ph.get("type") in ("title", "ctrTitle") and paras and title is None:
                    title = paras[0]
                lines += [(f"slide {i}", p) for p in paras]
            titles.append(title or next((t for w, t in lines if w == f"slide {i}"), ""))
    return {}, _doc(key, "PowerPoint", lines, slides=len(names), headings=[t for t in titles if t])


def _read_pdf(path, key):
    import pypdf
    r = pypdf.PdfReader(path)
    lines = []
    for i, page in enumerate(r.pages, 1):
        try:
            text = page.extract_text() or ""
        except Exception:  # a page pypdf cannot decode: the others still count
            text = ""
        lines += [(f"page {i}", l.rstrip()) for l in text.splitlines() if l.strip()]
    meta = r.metadata or {}
    title = meta.get("/Title") if hasattr(meta, "get") else None
    return {}, _doc(key, "PDF", lines, pages=len(r.pages), title=str(title).strip() if title else None,
                    scanned=bool(r.pages) and not lines)


def _read_image(path, key):
    from PIL import Image
    with Image.open(path) as im:
        info = {"width": im.width, "height": im.height, "mode": im.mode, "format": im.format,
                "frames": getattr(im, "n_frames", 1) if im.format == "GIF" else 0}
        small = im.convert("RGB")
        small.thumbnail((96, 96))
        info["colours"] = _main_colours(small)
    return {}, _doc(key, "image", [], **info)


def _main_colours(im, most=5):
    """The main colours of an RGB picture and their shares in percent: its pixels quantized to
    a few colours, then colours closer than a JPEG's noise merged into the commoner one."""
    pal = im.quantize(colors=8)
    rgb = pal.getpalette()
    kept = []  # [count, (r, g, b)]
    for count, i in sorted(pal.getcolors() or [], reverse=True):
        c = tuple(rgb[3 * i:3 * i + 3])
        near = next((k for k in kept if max(abs(a - b) for a, b in zip(k[1], c)) <= 40), None)
        if near:
            near[0] += count
        else:
            kept.append([count, c])
    total = sum(k[0] for k in kept) or 1
    kept.sort(key=lambda k: -k[0])
    return [{"hex": "#%02x%02x%02x" % c, "share": round(100 * n / total)} for n, c in kept[:most] if n]


def _members(path, ext):
    """(name, size, opener) of each file in an archive, directories and hidden files left out."""
    if ext == "zip":
        z = zipfile.ZipFile(path)
        return [(i.filename, i.file_size, lambda i=i: z.open(i)) for i in z.infolist()
                if not i.is_dir() and not any(p.startswith((".", "__MACOSX")) for p in i.filename.split("/"))]
    t = tarfile.open(path)
    return [(m.name, m.size, lambda m=m: t.extractfile(m)) for m in t.getmembers()
            if m.isfile() and not any(p.startswith(".") for p in m.name.split("/"))]


def _read_archive(path, key, ext):
    """An archive's members, each read as the file it is, named "archive.zip/member". Members
    are copied to /tmp under a plain name (never the member's own path, which may climb out)."""
    frames, docs, listing = {}, {}, []
    members = _members(path, ext)
    unpack = tempfile.mkdtemp(prefix="wb-unpack-")
    for n, (name, size, opener) in enumerate(members):
        mext = name.lower().rsplit(".", 1)[-1] if "." in name else ""
        entry = {"name": name, "bytes": size}
        listing.append(entry)
        if n >= _MAX_MEMBERS or mext in ("zip", "tar"):
            continue
        local = os.path.join(unpack, f"{n}.{mext}")
        try:
            with opener() as src, open(local, "wb") as dst:
                while chunk := src.read(1 << 20):
                    dst.write(chunk)
            f, d = _read_file(local, f"{key}/{name}", mext)
            frames.update(f)
            docs.update(d)
            entry["read"] = "table" if f else "document" if d else ""
        except Exception as e:  # said with the member, not as a file of its own
            entry["error"] = f"{type(e).__name__}: {e}"
        finally:
            if os.path.exists(local):
                os.remove(local)
    os.rmdir(unpack)
    docs.update(_doc(key, "archive", [(m["name"], m["name"]) for m in listing], members=listing,
                     archive=ext.upper(), tables=list(frames)))
    return frames, docs


def _read_xls(path):
    """An Excel 97-2003 workbook through xlrd directly: Debian's xlrd (1.2) is older than the
    one pandas asks for, but reads .xls as well as ever."""
    import xlrd
    book = xlrd.open_workbook(path)
    out = {}
    for sh in book.sheets():
        rows = []
        for r in range(sh.nrows):
            row = []
            for c in range(sh.ncols):
                cell = sh.cell(r, c)
                if cell.ctype == xlrd.XL_CELL_DATE:
                    row.append(str(xlrd.xldate_as_datetime(cell.value, book.datemode)))
                elif cell.ctype == xlrd.XL_CELL_NUMBER and float(cell.value).is_integer():
                    row.append(str(int(cell.value)))
                else:
                    row.append(str(cell.value) if cell.value != "" else None)
            rows.append(row)
        if rows:
            out[sh.name] = _clean(pd.DataFrame(rows[1:], columns=_header([c or "" for c in rows[0]])))
    return out


def _read_file(path, key, ext):
    """(frames, documents) of one file, read by what its extension says it is."""
    if ext in _PROSE:
        return _read_prose(path, key, ext)
    if ext in _CODE:
        return _read_code(path, key, ext)
    if ext in _IMAGES:
        return _read_image(path, key)
    readers = {"html": _read_html, "htm": _read_html, "xml": _read_xml, "docx": _read_docx,
               "pptx": _read_pptx, "pdf": _read_pdf}
    if ext in readers:
        return readers[ext](path, key)
    if ext in ("zip", "tar"):
        return _read_archive(path, key, ext)
    if ext == "xls":
        sheets = _read_xls(path)
        if len(sheets) == 1:
            return {key: next(iter(sheets.values()))}, {}
        return {f"{key}:{s}": d for s, d in sheets.items()}, {}
    if ext == "parquet":
        raise Unreadable("the local engine has no Parquet reader; save the table as CSV or Excel to ask about it")
    return _read_table(path, key, ext), {}


def _doc_find(keys, terms, yesno=False, limit=12):
    """Reports the lines of the documents keys that mention every term (a word and the words it
    starts, "budget" finding "budgets" too): one result per document that does, the last saying
    how many others do not; or one result for all when none does, with each term's own count."""
    pats = [re.compile(r"(?<![^\W_])" + re.escape(t), re.I) for t in terms]
    found, each = [], {t: 0 for t in terms}
    for key in keys:
        lines = documents[key]["lines"]
        hits = [(w, t) for w, t in lines if all(p.search(t) for p in pats)]
        for t, p in zip(terms, pats):
            each[t] += sum(1 for _, l in lines if p.search(l))
        if hits:
            found.append((key, hits))
    if not found:
        print(f"No line mentions {' and '.join(terms)}.")
        _emit("docfind", docs=keys, terms=terms, total=0, each=each, yesno=yesno)
    for key, hits in found:
        print(f"{key}: {len(hits)} line(s)")
        for w, t in hits[:limit]:
            print(f"  {w}: {t.strip()[:300]}")
    for i, (key, hits) in enumerate(found):
        _emit("docfind", doc=key, terms=terms, total=len(hits), yesno=yesno and i == 0,
              others=len(keys) - len(found) if i == len(found) - 1 else 0,
              hits=[[w, t.strip()[:300]] for w, t in hits[:limit]])


def _doc_lines(key, start, n):
    """Reports n lines of a document from line start (counted from 1; negative counts from the end)."""
    lines = [(w, t) for w, t in documents[key]["lines"] if t.strip()]
    part = lines[start - 1:start - 1 + n] if start > 0 else lines[start:][:n]
    print("\n".join(t for _, t in part))
    _emit("doclines", doc=key, total=len(lines), last=start < 0, lines=[[w, t[:300]] for w, t in part])


def _doc_picture(key, name):
    """Shows an attached image in the answer: drawn into a PNG the page shows, reported as a
    picture (not a chart: it has no data to redraw or axes to read)."""
    from PIL import Image
    with Image.open(os.path.join("/mnt/data", _mounted_of(key)) if os.path.isdir("/mnt/data") else key) as im:
        fig, ax = plt.subplots(figsize=(6, 6 * im.height / max(1, im.width)))
        ax.imshow(im.convert("RGBA"))
        ax.set_xticks([])  # a frame without ticks: a white picture's edge shows on a white page
        ax.set_yticks([])
        fig.tight_layout()
        fig.savefig(name, dpi=110)
        _emit("picture", file=name, doc=key)
        plt.show()


def _mounted_of(key):
    """The mounted name of the file people know as key."""
    return next((n for n in FILES if _shown(n) == key), key)
