# workbench: load every data file in /mnt/data robustly, then print a profile.
# Safe to run again: it only reads the files and rebuilds `frames`.
import ast, csv, io, json, os, re, warnings
import matplotlib
import matplotlib.collections
import matplotlib.dates
import matplotlib.patches
import matplotlib.ticker
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
warnings.filterwarnings("ignore")

# Charts are drawn on a white ground with text, ticks and frame in a dark grey, 10.4:1 (AA asks
# 4.5:1 of small text), so a PNG reads the same in the chat, the gallery, the zip, a notebook and
# an image viewer whatever their theme: no grey can reach 4.5:1 against both a white and a dark
# ground, so the chart brings its own.
_INK = "#3f3f46"
plt.rcParams.update({
    "figure.facecolor": "white", "axes.facecolor": "white", "savefig.transparent": False, "savefig.facecolor": "white",
    "text.color": _INK, "axes.labelcolor": _INK, "axes.titlecolor": _INK, "axes.edgecolor": _INK,
    "xtick.color": _INK, "ytick.color": _INK, "grid.color": _INK,
    "legend.facecolor": "none", "legend.edgecolor": _INK, "legend.labelcolor": _INK,
    "boxplot.boxprops.color": _INK, "boxplot.whiskerprops.color": _INK, "boxplot.capprops.color": _INK,
    "boxplot.flierprops.markeredgecolor": _INK, "hatch.color": _INK,
})

# The workbench's kernel (sandbox/worker.py) gives every session wb_report, which tells the
# engine a result out of band, never in the printed output; a notebook run elsewhere has none,
# and reports nothing.
_IN_ENGINE = "wb_report" in globals()

# Lowercase "none" is left a value: tables write it as a category ("test preparation: none"),
# and pandas, which an analyst's own check uses, keeps it too.
_NA = ["", "NA", "N/A", "n/a", "na", "NaN", "nan", "null", "NULL", "None", "-", "--", "?", "missing", "#N/A", "n.a."]
_DATE_NAME = re.compile(r"date|time|day|month|year|datum|period|week|stamp|created|updated|submitted|_at$|_on$", re.I)
_DATE_FORMATS = [("%Y-%m-%d", "iso"), ("%Y-%m-%d %H:%M:%S", "iso"), ("%Y-%m-%dT%H:%M:%S", "iso"), ("%Y-%m-%d %H:%M", "iso"),
                 ("%Y/%m/%d", "ymd/"), ("%d/%m/%Y", "dmy/"), ("%m/%d/%Y", "dmy/"), ("%d/%m/%Y %H:%M", "dmy/t"), ("%m/%d/%Y %H:%M", "dmy/t"),
                 ("%d/%m/%y", "dmy/y"), ("%m/%d/%y", "dmy/y"), ("%d.%m.%Y", "dmy."), ("%d-%m-%Y", "dmy-"), ("%m-%d-%Y", "dmy-"),
                 ("%d %b %Y", "dbY"), ("%b %d %Y", "bdY"), ("%b %d, %Y", "bdY,"), ("%d %B %Y", "dBY"), ("%B %d, %Y", "BdY"), ("%Y-%m", "ym")]


def _text(path):
    raw = open(path, "rb").read()
    encs = ("utf-16",) if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else ("utf-8-sig", "cp1252", "latin-1")
    for enc in encs:
        try:
            return raw.decode(enc)
        except UnicodeDecodeError:
            pass
    return raw.decode("latin-1", "replace")


def _sep(lines):
    """The separator of lines. One that only ever ends a line is a stray (a tab after every data
    row of a comma file, as a well-known car-mileage file has), not a separator."""
    lines = [l for l in lines if l.strip()]
    for d in ("\t", ";", "|", ","):
        counts = [l.count(d) for l in lines]
        if not counts or counts[0] == 0 or sum(c == counts[0] for c in counts) < 0.9 * len(counts):
            continue
        if all(l.rstrip("\r\n").rstrip(d).count(d) == 0 for l in lines):
            continue
        return d
    return ","


def _is_data_row(fields, comma_decimal):
    """Whether a first row is data rather than names: every field a number, and not all of them
    whole years (1800 to 2100), which wide tables use as column names. The file card decides
    the same way (files/csvshape.go), and names such columns column_1, column_2, …"""
    fields = [f.strip() for f in fields]
    if not fields or any(not f for f in fields) or _numeric(pd.Series(fields), comma_decimal) is None:
        return False
    return not all(re.fullmatch(r"1[89]\d\d|20\d\d|2100", f) for f in fields)


def _generated_names(n):
    return ["column_%d" % (i + 1) for i in range(n)]


# A file up to _FAST_MIN bytes is read the careful way, every cell looked at; a bigger one is
# judged on its first _SAMPLE_BYTES and then read once by pandas' C parser with what was
# decided, a column the full read does not bear out being finished the careful way.
_FAST_MIN = 4 << 20
_SAMPLE_BYTES = 1 << 18


def _read_csv(path):
    if os.path.getsize(path) > _FAST_MIN:
        try:
            df = _read_csv_fast(path)
        except pd.errors.ParserError as e:
            if "out of memory" in str(e):  # the C tokenizer's way of saying MemoryError
                raise MemoryError(str(e)) from e
            raise
        if df is not None:
            return df
    return _read_csv_careful(path)


def _leading_comments(lines):
    """How many lines stand above the header: blank lines, comments, and title lines with fewer
    fields than the rows below (a European export's "Umsatzbericht 2024"). A '#' line with as
    many fields as the rows is the header itself, as instruments write it ("#time,temp")."""
    skip = 0
    while skip < len(lines) and skip < 20:
        line = lines[skip].strip()
        if not line:
            skip += 1
            continue
        if line.count('"') % 2:  # a quoted name that goes on over the next lines: the header
            return skip
        fields, rows = _fields_below(lines, skip)
        if line.startswith(("#", "//")) and not (line.startswith("#") and rows > 1 and fields == rows):
            skip += 1
            continue
        if rows > 1 and fields < rows and not line.startswith("#"):
            skip += 1
            continue
        return skip
    return skip


def _fields_below(lines, at):
    """The fields of line at, and the number nearly all (80%) of the 50 data lines after it have,
    else 0 (quotes respected: a name may hold the separator). The file card judges title lines
    the same way (files/csvshape.go)."""
    below = [l for l in lines[at + 1:at + 51] if l.strip() and not l.lstrip().startswith(("#", "//"))]
    if not below:
        return 0, 0
    sep = _sep(below)
    counts = [len(r) for r in csv.reader(below, delimiter=sep)]
    usual = max(sorted(set(counts), reverse=True), key=counts.count)
    if counts.count(usual) < 0.8 * len(counts):  # ragged rows, not a table under a title
        usual = 0
    return len(next(csv.reader([lines[at]], delimiter=sep))), usual


def _hash_header(df, lines, skip):
    """Drops the '#' of a header line that starts with one: "#timestamp" is `timestamp`."""
    if skip < len(lines) and lines[skip].lstrip().startswith("#") and len(df.columns):
        first = str(df.columns[0])
        df = df.rename(columns={first: first.lstrip().lstrip("#").strip() or first})
    return df


def _backslash_escapes(text):
    """Whether a file escapes quotes inside quoted fields with a backslash (\\"), as its first
    64 KiB show: the file card decides on the same head (files/csvread.go)."""
    return '\\"' in text[:1 << 16]


def _read_csv_careful(path):
    text = _text(path)
    lines = text.splitlines()
    skip = _leading_comments(lines)
    sep = _sep(lines[skip:skip + 50])
    body = "\n".join(lines[skip:skip + 1] + [l for l in lines[skip + 1:] if not l.lstrip().startswith("#")])
    first = next(csv.reader(lines[skip:skip + 1], delimiter=sep), [])
    names = {"header": None, "names": _generated_names(len(first))} if _is_data_row(first, sep == ";") else {}
    if _backslash_escapes(text):
        names["escapechar"] = "\\"
    df = pd.read_csv(io.StringIO(body), sep=sep, dtype=str, keep_default_na=False, na_values=_NA, skipinitialspace=True,
                     **names)
    return _clean(_hash_header(df, lines, skip), comma_decimal=(sep == ";"))


def _sample(path):
    """The first whole lines of a file and their encoding, or None when only the careful way
    will do (UTF-16, or comment lines after the header)."""
    with open(path, "rb") as f:
        raw = f.read(_SAMPLE_BYTES)
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return None
    raw = raw[:raw.rfind(b"\n") + 1] or raw
    for enc in ("utf-8-sig", "cp1252"):
        try:
            lines = raw.decode(enc).splitlines()
            break
        except UnicodeDecodeError:
            continue
    else:
        return None
    skip = _leading_comments(lines)
    if any(l.lstrip().startswith("#") for l in lines[skip + 1:]):
        return None
    return lines, skip, enc


def _plan(sample, comma_decimal):
    """What the careful way makes of each column of the sample: a number (and how it is
    written), a date (and its formats) or text."""
    plan = {}
    for c in sample.columns:
        s = sample[c].where(sample[c].isna(), sample[c].astype(str).str.strip()).replace(_NA, np.nan)
        # Whether and how the column is numbers depends on which values occur, not how often
        # (any and all): judged on the distinct ones, a text column of a few values repeated
        # over the sample's thousands of rows costs its few regular expressions a value.
        style = _number_style(s.drop_duplicates(), comma_decimal)
        if style:
            plan[c] = ("num", style)
            continue
        formats = _date_formats(s, c)
        if formats:
            plan[c] = ("date", formats)
        elif s.notna().any():
            plan[c] = ("text", None)
        else:
            plan[c] = ("unknown", None)  # empty in the sample: the careful way decides
    return plan


def _number_style(s, comma_decimal):
    """plain, us (1,234.5) or eu (1.234,5) when the careful way reads s as numbers."""
    v = s.dropna().astype(str)
    if v.empty or v.str.contains(r"^[$€£]|%$|\s", regex=True).any():
        return None
    if _numeric(s, comma_decimal) is None:
        return None
    if v.str.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?").all():
        return "plain"
    return "eu" if comma_decimal or v.str.contains(",\d{1,2}$|\.\d{3},", regex=True).any() else "us"


def _read_csv_fast(path):
    got = _sample(path)
    if got is None:
        return None
    lines, skip, enc = got
    if _backslash_escapes("\n".join(lines)):
        return None  # the careful way reads the escapes
    sep = _sep(lines[skip:skip + 50])
    comma_decimal = sep == ";"
    if _is_data_row(next(csv.reader(lines[skip:skip + 1], delimiter=sep), []), comma_decimal):
        return None  # no header row: the careful way names the columns
    head = pd.read_csv(io.StringIO("\n".join(lines[skip:])), sep=sep, dtype=str, keep_default_na=False,
                       na_values=_NA, skipinitialspace=True)
    plan = _plan(head, comma_decimal)
    styles = {style for kind, style in plan.values() if kind == "num" and style != "plain"}
    if len(styles) > 1:
        return None
    opts = {"eu": {"decimal": ",", "thousands": "."}, "us": {"thousands": ","}}.get(styles.pop() if styles else "", {})
    if comma_decimal and not opts:
        opts = {"decimal": ","}
    later = _later_rows(path, enc, sep, head.columns)
    dtypes = _text_types(plan, head, later)
    _check_room(path, pd.concat([head, later], ignore_index=True), dtypes,
                sum(len(l) + 1 for l in lines[skip:]) / max(1, len(head)))
    # In chunks (low_memory): the tokens of a whole 500 MB file at once would not fit the
    # sandbox's memory, and every column that is not a number has its dtype given anyway.
    for encoding in (enc, "cp1252"):  # a sample in UTF-8 may still be followed by Windows text
        try:
            df = pd.read_csv(path, sep=sep, encoding=encoding, skiprows=skip, dtype=dtypes, keep_default_na=False,
                             na_values=_NA, skipinitialspace=True, **opts)
            break
        except UnicodeDecodeError:
            if encoding == "cp1252":
                raise
    if list(df.columns) != list(head.columns):
        return None
    df, head = _hash_header(df, lines, skip), _hash_header(head, lines, skip)
    plan = {str(h): v for h, v in zip(head.columns, plan.values())}
    done = set()
    for c, (kind, detail) in plan.items():
        df[c], final = _finish(df[c], kind, detail)
        if final:
            done.add(c)
    return _clean(df, comma_decimal, done)


def _check_room(path, sample, dtypes, row_bytes):
    """Raise MemoryError before reading a file whose frame would not fit the kernel's address
    space, judged on the sample: pandas' chunked C parser does not always survive running out
    of memory (it can crash the kernel, losing the session), so it must never get that far.
    Reading takes about twice the frame (the chunks, then their concatenation)."""
    room = _address_room()
    if room is None or sample.empty:
        return
    rows = os.path.getsize(path) / max(1.0, row_bytes)
    per_row = 0.0
    for c in sample.columns:
        if dtypes.get(c) is str:  # a Python string a row: its text, the object's 49 bytes, a pointer
            per_row += 57 + sample[c].dropna().astype(str).str.len().mean() if sample[c].notna().any() else 8
        else:  # numbers and dates, and categories kept as pointers to shared strings
            per_row += 8
    need = rows * per_row
    if 2 * need > room:
        raise MemoryError(f"the table would take about {need / 2**20:,.0f} MB, and the kernel has {room / 2**20:,.0f} MB free")


def _address_room():
    """The bytes this process may still map (RLIMIT_AS less what it maps now), or None."""
    import resource
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return None
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return soft - int(line.split()[1]) * 1024
    return None


def _text_types(plan, head, later):
    """How to read each column that is not a number: as categories when it repeats at the top
    of the file and further down too, else as strings."""
    return {c: "category" if kind in ("text", "date") and _repeats(head[c]) and _repeats(later.get(c)) else str
            for c, (kind, _) in plan.items() if kind != "num"}


def _repeats(s):
    """Whether a text column of the sample repeats its values enough to be read as categories:
    each distinct string is then made once, not once per row (the row holds a code), which
    is what lets a file of hundreds of megabytes fit the sandbox's memory. None (no later
    sample) says nothing against it."""
    return s is None or s.nunique() <= 0.5 * max(1, s.notna().sum())


def _later_rows(path, enc, sep, columns):
    """Rows from the middle and the end of a file (64 KB each), as text, to check what its
    first lines suggest: an export sorted by date may repeat a column at the top and never
    again. An empty frame when they cannot be read so (a quoted line break, say)."""
    size, parts = os.path.getsize(path), []
    with open(path, "rb") as f:
        for at in (size // 2, max(0, size - (1 << 16))):
            f.seek(at)
            raw = f.read(1 << 16)
            raw = raw[raw.find(b"\n") + 1:raw.rfind(b"\n") + 1]
            try:
                parts.append(pd.read_csv(io.StringIO(raw.decode(enc, "replace")), sep=sep, header=None, names=list(columns),
                                         dtype=str, keep_default_na=False, na_values=_NA, skipinitialspace=True))
            except Exception:
                return pd.DataFrame(columns=columns)
    return pd.concat(parts, ignore_index=True)


def _finish(s, kind, formats):
    """Turn a column of the full read into what the careful way would have made of it, and say
    whether that is final; a column the sample misjudged is left for _clean to look at whole.
    Text is tidied and dates parsed once per distinct value, not once per row: a big export
    repeats its values."""
    if kind == "num" and pd.api.types.is_numeric_dtype(s):
        return s, True
    if s.dtype != object and not isinstance(s.dtype, pd.CategoricalDtype):
        return s, False
    # Both readings are made of the distinct values, once: the rows are spread out only for
    # the one kept, and the dates' share of the rows is counted from the codes.
    codes, uniques = _codes(s)
    text = uniques.str.strip().replace(_NA, np.nan)
    if kind == "date":
        when = _read_dates(text, formats)
        rows = np.bincount(codes[codes >= 0], minlength=len(uniques))
        if rows[when.notna().to_numpy()].sum() >= 0.8 * rows[text.notna().to_numpy()].sum():
            return _spread(when, codes, s.index), True
    return _spread(text, codes, s.index), kind == "text"


def _codes(s):
    """The distinct values of s as an object Series, and each row's code into them (-1 for
    missing): a categorical's own, or factorized."""
    if isinstance(s.dtype, pd.CategoricalDtype):
        codes, uniques = s.cat.codes.to_numpy(), s.cat.categories.to_numpy(dtype=object)
    else:
        codes, uniques = pd.factorize(s)
    return codes, pd.Series(uniques, dtype=object)


def _spread(done, codes, index):
    """The values done (one per distinct value) spread back over the rows (missing stays
    missing). For a categorical the rows share the string objects of its categories: the
    careful way's dtype and behaviour (a categorical's group-by and value_counts also list
    categories no row has), at 8 bytes a row."""
    out = pd.Series(done.to_numpy().take(np.maximum(codes, 0)), index=index, dtype=done.dtype)
    return out.where(codes >= 0) if (codes < 0).any() else out



def _read_json(path):
    text = _text(path).strip()
    try:
        data = json.loads(text)
    except ValueError:
        data = [json.loads(l) for l in text.splitlines() if l.strip()]
    if isinstance(data, dict):
        lists = [v for v in data.values() if isinstance(v, list)]
        data = lists[0] if len(lists) == 1 else data
    df = pd.json_normalize(data) if isinstance(data, list) else pd.DataFrame(data)
    return _clean(df.astype({c: str for c in df.columns if df[c].dtype == object}).replace("nan", np.nan))


def _numeric(s, comma_decimal):
    # The present values' text is the whole column's, cleaned once (the same steps a value).
    clean = s.astype(str).str.strip().str.replace(r"^[$€£]|%$|\s", "", regex=True)
    v = clean[s.notna()]
    if v.empty:
        return None
    plain = v.str.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")
    us = v.str.fullmatch(r"[-+]?\d{1,3}(,\d{3})+(\.\d+)?")
    eu = v.str.fullmatch(r"[-+]?\d{1,3}(\.\d{3})+(,\d+)?|[-+]?\d+,\d+")
    integer = v.str.fullmatch(r"[-+]?\d+")
    if (comma_decimal or eu.any() and not us.any()) and (eu | integer).all() and eu.any():
        return pd.to_numeric(clean.str.replace(".", "", regex=False).str.replace(",", ".", regex=False), errors="coerce").where(s.notna())
    if (plain | us).all():
        return pd.to_numeric(clean.str.replace(",", "", regex=False), errors="coerce").where(s.notna())
    return None


def _date_formats(s, name):
    """The date formats that read s, best first: one per family (day first or month first, and
    so on), or None when s does not look like dates or no format reads 80% of it."""
    return _date_reading(s, name)[1]


def _date_reading(s, name):
    """How s reads as dates: whether it looks like dates at all (its name, or 80% of its values
    shaped like dates), the formats that read 80% of it (best first, or None), and s read
    with them: read once, for the test and the result."""
    v = s.dropna().astype(str).str.strip()
    if v.empty or not (_DATE_NAME.search(str(name)) or v.str.match(r"\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}").mean() > 0.8):
        return False, None, None
    # Each format is tried on the distinct values, each counting for its rows: a column of
    # dates repeats them, and twenty formats over every row cost twenty passes.
    seen = v.value_counts(sort=False)
    distinct, weight = pd.Series(seen.index.to_numpy(dtype=object), dtype=object), seen.to_numpy()
    best = {}
    for fmt, family in _DATE_FORMATS:
        n = int(weight[pd.to_datetime(distinct, format=fmt, errors="coerce").notna().to_numpy()].sum())
        if n and n > best.get(family, ("", 0))[1]:
            best[family] = (fmt, n)
    formats = [fmt for fmt, n in sorted(best.values(), key=lambda p: -p[1])]
    if formats:
        out = _read_dates(s, formats)
        if out.notna().sum() >= 0.8 * len(v):
            return True, formats, out
    return True, None, None


def _read_dates(s, formats):
    text = s.astype(str).str.strip()
    out = pd.Series(pd.NaT, index=s.index)
    for fmt in formats:
        out = out.fillna(pd.to_datetime(text, format=fmt, errors="coerce"))
    return out


def _dates(s, name):
    looks, formats, out = _date_reading(s, name)
    if formats or not looks:
        return out
    out = pd.to_datetime(s, errors="coerce")  # no single format: let pandas guess each
    return out if out.notna().sum() >= 0.8 * s.notna().sum() else None


def _drop_empty(df):
    """dropna(how="all") over rows, then columns, without looking at every cell when it need
    not: a row with a number is not empty, and a column with a value near its top is not."""
    empty = None
    for c in sorted(df.columns, key=lambda c: df[c].dtype == object):  # cheap columns first
        empty = df[c].isna() if empty is None else empty & df[c].isna()
        if not empty.any():
            break
    if empty is not None and empty.any():
        df = df[~empty]
    keep = [c for c in df.columns if df[c].iloc[:1000].notna().any() or df[c].notna().any()]
    return df[keep] if len(keep) < df.shape[1] else df


def _clean(df, comma_decimal=False, done=()):
    """Drop empty rows and columns, and turn each text column that holds numbers or dates into
    numbers or dates, looking at every cell; the columns in done are final already."""
    done = {str(c).strip() for c in done}
    # In place where pandas allows it: a big frame copied whole (rename, loc, reset_index)
    # needs its size again in memory, which a 500 MB file in the sandbox does not have.
    df.columns = [str(c).strip() for c in df.columns]
    df = _drop_empty(df)  # an empty "Unnamed: 3" column too
    for c in df.columns:
        if df[c].dtype != object or c in done:
            continue
        df[c] = df[c].where(df[c].isna(), df[c].astype(str).str.strip()).replace(_NA, np.nan)
        num = _numeric(df[c], comma_decimal)
        if num is not None:
            df[c] = num
            continue
        when = _dates(df[c], c)
        if when is not None:
            df[c] = when
    if not df.index.equals(pd.RangeIndex(len(df))):
        df = df.reset_index(drop=True)
    return df


# An upload is mounted as <file_id>-<filename>, as on the hosted service; people know it by
# its filename, so frames are keyed by that (mountedName in profile.go is the same pattern).
_MOUNTED = re.compile(r"(?:file|assistant)-[A-Za-z0-9]{16,}-(.+)")


def _shown(name):
    m = _MOUNTED.fullmatch(name)
    return m.group(1) if m else name


def _load(name):
    """(frames, documents) of one attached file."""
    path = os.path.join("/mnt/data", name) if os.path.isdir("/mnt/data") else name
    ext = name.lower().rsplit(".", 1)[-1] if "." in name else ""
    return _read_file(path, _shown(name), ext)


def _read_table(path, key, ext):
    """The frames of a file pandas reads as a table: a workbook's every sheet, JSON, or text
    with a separator (any other extension is tried as that)."""
    if ext in ("xlsx", "xlsm"):
        sheets = pd.read_excel(path, sheet_name=None)
        if len(sheets) == 1:
            return {key: _clean(next(iter(sheets.values())))}
        return {f"{key}:{sheet}": _clean(d) for sheet, d in sheets.items()}
    if ext in ("json", "jsonl", "ndjson"):
        return {key: _read_json(path)}
    return {key: _read_csv(path)}


def _kind(s, n):
    """What a column is, n being its number of distinct values (asked for only for text)."""
    if pd.api.types.is_bool_dtype(s):
        return "bool"
    if pd.api.types.is_datetime64_any_dtype(s):
        return "date"
    if pd.api.types.is_numeric_dtype(s):
        return "num"
    if _listed(s):
        return "list"
    n = n()
    return "cat" if n <= max(30, 0.2 * len(s)) or n <= 60 else "text"


def _listed(s):
    """A column whose cells hold lists, as exports write them ("['France', 'Spain']",
    "[a, b]"): nine in ten of its first 200 filled cells are bracketed."""
    head = s.dropna().astype(str).str.strip().head(200)
    return len(head) >= 3 and bool((head.str.startswith("[") & head.str.endswith("]")).mean() >= 0.9)


def _items(v):
    """The items of a cell that holds a list; a missing or empty cell has none, any other value
    is one item. Python's own reading first ("['a', 'b']"), else the text between the brackets
    split on commas ("[a, b]")."""
    if isinstance(v, (list, tuple)):
        return [str(x).strip() for x in v]
    if v is None or (isinstance(v, float) and v != v):
        return []
    t = str(v).strip()
    if not (t.startswith("[") and t.endswith("]")):
        return [t] if t else []
    try:
        got = ast.literal_eval(t)
        if isinstance(got, (list, tuple)):
            return [str(x).strip() for x in got if str(x).strip()]
    except (ValueError, SyntaxError):
        pass
    return [p.strip().strip("'\"").strip() for p in t[1:-1].split(",") if p.strip().strip("'\"").strip()]


def _each(s):
    """A column of lists with one row per item, for counting, grouping and ranking items."""
    return s.map(_items).explode().dropna()


def _column(s):
    """The profile of a column. A text column's counts all come from one value_counts: each
    of nunique, isna and value_counts is a pass over every row, and on a big export the
    three passes of each text column were a third of loading it."""
    counts = None

    def tally():
        nonlocal counts
        if counts is None:
            counts = s.value_counts()
        return counts

    kind = _kind(s, lambda: len(tally()))
    if kind == "list":
        counts = _each(s).value_counts() # the items, not the lists, are the values
        missing = int(s.isna().sum())
        return {"name": str(s.name), "kind": kind, "dtype": str(s.dtype), "missing": missing, "unique": len(counts),
                "values": [str(x) for x in counts.index[:40]]}
    if counts is not None:
        missing, unique = len(s) - int(counts.sum()), len(counts)
    else:
        missing, unique = int(s.isna().sum()), int(s.nunique())
    col = {"name": str(s.name), "kind": kind, "dtype": str(s.dtype), "missing": missing, "unique": unique}
    if kind in ("num", "date") and s.notna().any():
        col["min"], col["max"] = str(s.min()), str(s.max())
    if kind in ("cat", "bool"):
        col["values"] = [str(x) for x in tally().index[:40]]
    return col


def _profile(frames, docs, failed):
    failed = {_shown(n): e for n, e in failed.items()}
    out = []
    for key, d in frames.items():
        name, _, sheet = key.partition(":")
        out.append({"key": key, "file": name, "sheet": sheet, "rows": int(len(d)), "columns": [_column(d[c]) for c in d.columns],
                    "head": json.loads(d.head(3).to_json(orient="values", date_format="iso"))})
        print(f"Loaded {key}: {len(d):,} rows x {d.shape[1]} columns")
    for key, d in docs.items():
        print(f"Read {key} as a document ({d['profile']['kind']})")
    for name, err in failed.items():
        print(f"Could not load {name}: {err}")
    if _IN_ENGINE:
        report = {"frames": out, "failed": failed}
        if docs:  # only then: a profile of tables alone reads as it always has
            report["docs"] = [d["profile"] for d in docs.values()]
        wb_report("profile", report)


def _signature(name):
    st = os.stat(os.path.join("/mnt/data", name) if os.path.isdir("/mnt/data") else name)
    return (st.st_size, st.st_mtime_ns)


# A live kernel keeps what it parsed, keyed by size and mtime, so a big file is parsed once per
# session; a replaced kernel simply parses again. The tables are shared, not copied, to spare
# memory: the generated cells never modify them in place.
_wb_cache = globals().get("_wb_cache", {})
frames, documents, _failed = {}, {}, {}
for _name in FILES:
    try:
        _sig = _signature(_name)
        if _wb_cache.get(_name, (None,))[0] != _sig:
            _wb_cache[_name] = (_sig, _load(_name))
        frames.update(_wb_cache[_name][1][0])
        documents.update(_wb_cache[_name][1][1])
    except MemoryError:
        _wb_cache.pop(_name, None)
        _failed[_name] = (f"it is too large to load whole in the sandbox's memory ({_signature(_name)[0] >> 20:,} MB on disk). "
                          "Read only the columns you need in a fenced python block, e.g. "
                          f"pd.read_csv('/mnt/data/{_name}', usecols=[...]) or nrows=1_000_000 for a sample, "
                          "or upload the file split into parts")
    except Unreadable as e:  # said in words already
        _failed[_name] = str(e)
    except Exception as e:
        _failed[_name] = f"{type(e).__name__}: {e}"
_profile(frames, documents, _failed)


def _plain(v):
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float) and not np.isfinite(v):
        return None
    if isinstance(v, (pd.Timestamp, np.datetime64)):
        return str(pd.Timestamp(v).date()) if pd.Timestamp(v) == pd.Timestamp(v).normalize() else str(v)
    return v if isinstance(v, (int, float, str, bool)) or v is None else str(v)


def _thin(result, points=2000):
    """A long series reduced for drawing to about `points` means of consecutive rows, and a
    note that says so; a short one as it is, with no note."""
    n = len(result)
    if n <= 2 * points:
        return result, ""
    step = -(-n // points)
    bucket = np.arange(n) // step
    shown = result.groupby(bucket).mean(numeric_only=True)
    shown.index = result.index[::step][:len(shown)]
    return shown, f"Drawn from {len(shown):,} points, each the mean of {step:,} consecutive rows of {n:,}."


def _row_position(mask, none):
    """The position in the file of the first row where mask holds, or none when no row does:
    the row a question places others by ("the round after round 3")."""
    hits = np.flatnonzero(np.asarray(mask))
    return int(hits[0]) if len(hits) else none


def _emit(kind, **fields):
    """Report one result to the engine; the reply quotes numbers from these only. Only in the
    workbench's kernel: a notebook exported and run elsewhere reports none."""
    if _IN_ENGINE:
        wb_report("result", _plain(dict(kind=kind, **fields)))


def _rows(d, n=10, cols=None):
    if isinstance(d, pd.Series):
        d = d.to_frame()
    if cols:
        d = d[[c for c in cols if c in d.columns]]
    named = d.index.name is not None or d.index.dtype == object or isinstance(d.index, pd.MultiIndex)
    d = d.head(n).reset_index() if named else d.head(n)
    return {"columns": [str(c) for c in d.columns], "rows": _plain(d.astype(object).where(d.notna(), None).values.tolist())}


def _has_data(fig):
    """Whether a figure draws anything: a blank 0-1 frame must never pass for a chart."""
    for ax in fig.axes:
        if ax.images:
            return True
        for line in ax.get_lines():
            try:
                if np.isfinite(np.asarray(line.get_ydata(), dtype=float)).any():
                    return True
            except (TypeError, ValueError):
                return True
        for p in ax.patches:
            if not isinstance(p, matplotlib.patches.Rectangle):
                return True  # a pie's wedges, a polygon
            w, h = p.get_width(), p.get_height()
            if w and h and np.isfinite(w) and np.isfinite(h):
                return True
        for c in ax.collections:
            arr = c.get_array()
            if len(c.get_offsets()) and not isinstance(c, matplotlib.collections.PolyCollection) or arr is not None and np.size(arr):
                return True
            if isinstance(c, matplotlib.collections.PolyCollection) and any(len(p.vertices) > 2 for p in c.get_paths()):
                return True
    return False


def _save_chart(fig, name):
    if not _has_data(fig):
        # Nothing to draw (every value filtered out or missing): say so rather than save a
        # blank frame that would pass for the answer's chart.
        plt.close(fig)
        _emit("nochart", file=name)
        return
    for ax in fig.axes[:1]:
        for axis in (ax.xaxis, ax.yaxis):
            # Thousands separators instead of 1e6 offsets, except on date axes.
            if isinstance(axis.get_major_formatter(), matplotlib.ticker.ScalarFormatter):
                axis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:,.0f}" if abs(v) >= 1000 else f"{v:g}"))
    fig.tight_layout()
    fig.savefig(name, dpi=110)
    globals().get("wb_vega_lite", lambda *a: None)(fig, name)  # the interactive twin (sandbox/worker.py)
    _emit("chart", file=name, title=fig.axes[0].get_title() if fig.axes else "")
    plt.show()
