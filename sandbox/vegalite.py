"""Interactive twins of saved charts, for the kernel (worker.py), which loads
this module from beside itself and gives every session its wb_vega_lite.

table_cell, the kernel's JSON form of one value, is set on this module by the
kernel before the module runs, so that a chart's numbers and a table's are
written the same way.
"""

import json
import os


# Interactive twins of saved charts. wb_vega_lite reads a saved matplotlib
# figure back (the artists it drew, not the data frame it came from, so the
# spec holds exactly what the PNG shows) and writes it as a Vega-Lite spec.
# Every artist must be understood: a figure with anything else (an image, a
# colour-mapped scatter, a notched or sideways box plot, a second plot) gets
# no spec and keeps its PNG, never a wrong interactive chart.

VEGA_POINTS = 2000  # per series; the built-in analyst's _thin draws no more either
VL_SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"


class _NoSpec(Exception):
    """The figure holds something a Vega-Lite spec would not show faithfully."""


def _hex(c):
    import matplotlib.colors
    return matplotlib.colors.to_hex(c, keep_alpha=False)


def _series_name(artist, names, what):
    """The artist's legend label, or what it is ("points", "line 2") when
    matplotlib keeps it out of the legend."""
    label = str(artist.get_label())
    if label and not label.startswith("_"):
        return label
    n = sum(1 for x in names if x == what or x.startswith(what + " ")) + 1
    return what if n == 1 else "%s %d" % (what, n)


def _axis_kind(axis):
    """How an axis maps values: ("nominal", labels by position), ("temporal",
    None) or ("quantitative", None)."""
    import matplotlib.category
    import matplotlib.dates
    units, conv = axis.get_units(), axis.get_converter() if hasattr(axis, "get_converter") else axis.converter
    if isinstance(units, matplotlib.category.UnitData):
        return "nominal", {i: str(k) for k, i in units._mapping.items()}
    if isinstance(conv, matplotlib.dates.DateConverter) or type(conv).__name__ in ("_SwitchableDateConverter", "ConciseDateConverter"):
        return "temporal", None
    if conv is not None:
        raise _NoSpec("unknown units")  # a pandas period axis, say
    return "quantitative", None


def _axis_value(kind, v):
    """A drawn coordinate as the data value it stands for."""
    import matplotlib.dates
    if v is None or v != v:
        return None
    if kind[0] == "nominal":
        at = min(kind[1], key=lambda p: abs(p - v), default=None)
        if at is None or abs(at - v) >= 0.5:
            raise _NoSpec("a position between categories")
        return kind[1][at]
    if kind[0] == "temporal":
        # A naive ISO date-time, read by the browser as the wall time drawn.
        d = matplotlib.dates.num2date(float(v)).replace(tzinfo=None)
        return d.isoformat(timespec="seconds")
    return table_cell(float(v))


def _thin_every(n):
    step = -(-n // VEGA_POINTS) if n > VEGA_POINTS else 1
    return step


def _content_axes(fig):
    """The one axes that draws something; none or several is no spec."""
    full = [ax for ax in fig.axes if ax.lines or ax.patches or ax.collections or ax.images]
    if len(full) != 1:
        raise _NoSpec("%d plots" % len(full))
    ax = full[0]
    if ax.images or ax.tables or ax.artists or getattr(ax, "child_axes", None):
        raise _NoSpec("an image or a table")
    if ax.get_xscale() != "linear" or ax.get_yscale() != "linear":
        raise _NoSpec("a log scale")
    return ax


def _legend(ax):
    """The colour legend as the PNG has it: shown when the PNG shows one."""
    leg = ax.get_legend()
    if leg is None:
        return None
    return {"title": leg.get_title().get_text() or None}


def _color(names, colors, legend):
    enc = {"field": "series", "type": "nominal", "title": legend["title"] if legend else None,
           "scale": {"domain": names, "range": colors}}
    if legend is None:
        enc["legend"] = None
    return enc


def _line_layers(ax, kx, names, colors, notes):
    """The plain lines of ax as one line layer, or [] when there are none."""
    import numpy as np
    values, dashes, markers = [], [], False
    for line in ax.get_lines():
        if line.get_transform() != ax.transData or line.get_linestyle() in ("None", " ", ""):
            raise _NoSpec("a reference line or markers only")
        xs = np.asarray(line.get_xdata(orig=False), dtype=float)
        ys = np.asarray(line.get_ydata(orig=False), dtype=float)
        ok = np.isfinite(xs)
        if len(xs) < 2 or np.any(np.diff(xs[ok]) < 0) or np.all(xs[ok] == xs[ok][0]):
            raise _NoSpec("a line drawn out of x order")  # a box plot's outline, say
        name = _series_name(line, names, "line")
        step = _thin_every(len(xs))
        if step > 1:
            notes.append("%s: every %s%s of %s points shown." % (name, step, _ordinal(step), "{:,}".format(len(xs))))
        for x, y in zip(xs[::step], ys[::step]):
            values.append({"x": _axis_value(kx, x), "y": table_cell(float(y)), "series": name})
        names.append(name)
        colors.append(_hex(line.get_color()))
        markers = markers or line.get_marker() not in (None, "None", "", " ")
        if line.get_linestyle() not in ("-", "solid"):
            dashes.append(name)  # a rolling mean over its series
    if not values:
        return []
    return [{"data": {"values": values},
             # Points to hover, seen only where the PNG has markers.
             "mark": {"type": "line", "point": {"size": 40, "filled": True, "opacity": 1 if markers else 0} if len(values) <= 2 * VEGA_POINTS else False,
                      "tooltip": True, "strokeWidth": 1.6},
             "encoding": {"strokeDash": {"condition": {"test": {"field": "series", "oneOf": dashes}, "value": [5, 3]},
                                         "value": [1, 0]}} if dashes else {}}]


def _numeric(text):
    try:
        float(text.replace(",", "").replace("\u2212", "-"))
        return True
    except ValueError:
        return False


def _ordinal(n):
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _bars(ax):
    """Bar containers as rows: series, position and extent of each bar."""
    import matplotlib.container
    bars = [c for c in ax.containers if isinstance(c, matplotlib.container.BarContainer)]
    drawn = {id(p) for c in bars for p in c.patches}
    if not bars or any(id(p) not in drawn for p in ax.patches) or ax.collections or ax.get_lines():
        raise _NoSpec("bars mixed with other marks")
    if len({c.orientation for c in bars}) != 1:
        raise _NoSpec("bars both ways")
    return bars, bars[0].orientation == "horizontal"


def _bar_spec(ax, names, colors):
    import matplotlib.ticker
    bars, horizontal = _bars(ax)
    pos_axis, val_axis = (ax.yaxis, ax.xaxis) if horizontal else (ax.xaxis, ax.yaxis)
    kp, kv = _axis_kind(pos_axis), _axis_kind(val_axis)
    if kp[0] == "quantitative" and isinstance(pos_axis.get_major_locator(), matplotlib.ticker.FixedLocator):
        # Categories named by tick labels, as pandas' bar plots and grouped bars draw them.
        labels = [t.get_text() for t in pos_axis.get_ticklabels()]
        if any(l and not _numeric(l) for l in labels):
            kp = ("nominal", dict(zip(pos_axis.get_ticklocs(), labels)))
    if kv[0] != "quantitative":
        raise _NoSpec("bars along a category axis")
    values, opacity = [], None
    for c in bars:
        # ax.hist labels its first bar, not the container
        name = _series_name(c if not str(c.get_label()).startswith("_") or not c.patches else c.patches[0], names, "bars")
        if len({_hex(p.get_facecolor()) for p in c.patches}) > 1:
            raise _NoSpec("bars of one series in several colours")
        names.append(name)
        colors.append(_hex(c.patches[0].get_facecolor()) if c.patches else "#1f77b4")
        for p in c.patches:
            x, y, w, h = p.get_x(), p.get_y(), p.get_width(), p.get_height()
            start, extent, base, size = (y, h, x, w) if horizontal else (x, w, y, h)
            opacity = p.get_alpha() if p.get_alpha() is not None else 1
            row = {"series": name, "value": table_cell(float(size)), "base": table_cell(float(base)),
                   "top": table_cell(float(base + size))}
            if kp[0] == "nominal":
                row["category"] = _axis_value(kp, start + extent / 2)
            else:
                row["start"], row["end"] = _axis_value(kp, start), _axis_value(kp, start + extent)
            values.append(row)
    if not values:
        raise _NoSpec("no bars")
    pos, val = ("y", "x") if horizontal else ("x", "y")
    pos_title = (ax.get_ylabel() if horizontal else ax.get_xlabel()) or None
    val_title = (ax.get_xlabel() if horizontal else ax.get_ylabel()) or None
    enc = {val: {"field": "top", "type": "quantitative", "title": val_title},
           val + "2": {"field": "base"}}
    tooltip = []
    if kp[0] == "nominal":
        order = [kp[1][i] for i in sorted(kp[1])]
        inverted = pos_axis.get_inverted() if hasattr(pos_axis, "get_inverted") else False
        if horizontal != inverted:
            order = order[::-1]  # matplotlib counts categories up from the bottom
        enc[pos] = {"field": "category", "type": "nominal", "title": pos_title, "sort": order,
                    "axis": {"labelAngle": -45 if not horizontal and len(order) > 6 else 0}}
        if len(bars) > 1 and len({(v["category"]) for v in values}) < len(values) and all(v["base"] == 0 for v in values):
            centers = {round((p.get_y() + p.get_height() / 2) if horizontal else (p.get_x() + p.get_width() / 2), 6)
                       for c in bars for p in c.patches}
            if len(centers) > len(order):  # side by side, not drawn over each other
                enc[pos[0] + "Offset"] = {"field": "series", "sort": names}
        tooltip.append({"field": "category", "type": "nominal", "title": pos_title or "category"})
        mark = {"type": "bar", "tooltip": True}
    else:
        enc[pos] = {"field": "start", "type": kp[0], "title": pos_title}
        enc[pos + "2"] = {"field": "end"}
        tooltip += [{"field": "start", "type": kp[0], "title": "from"}, {"field": "end", "type": kp[0], "title": "to"}]
        mark = {"type": "rect", "tooltip": True}
    if len(bars) > 1:
        tooltip.append({"field": "series", "type": "nominal", "title": "series"})
    tooltip.append({"field": "value", "type": "quantitative", "title": val_title or "value", "format": ",.6~g"})
    enc["tooltip"] = tooltip
    if opacity is not None and opacity < 1:
        mark["opacity"] = opacity
    return [{"data": {"values": values}, "mark": mark, "encoding": enc}]


def _scatter_layers(ax, kx, ky, names, colors, notes):
    import matplotlib.collections
    import numpy as np
    values = []
    for c in ax.collections:
        if type(c) is not matplotlib.collections.PathCollection:
            raise _NoSpec("a collection other than points")
        if c.get_array() is not None or len(c.get_facecolor()) > 1 or len(np.unique(c.get_sizes())) > 1:
            raise _NoSpec("colour- or size-mapped points")
        pts = np.asarray(c.get_offsets(), dtype=float)
        name = _series_name(c, names, "points")
        step = _thin_every(len(pts))
        if step > 1:
            notes.append("%s: every %s%s of %s points shown." % (name, step, _ordinal(step), "{:,}".format(len(pts))))
        for x, y in pts[::step]:
            values.append({"x": _axis_value(kx, x), "y": _axis_value(ky, y), "series": name})
        names.append(name)
        colors.append(_hex(c.get_facecolor()[0]) if len(c.get_facecolor()) else "#1f77b4")
    alpha = ax.collections[0].get_alpha()
    size = float(ax.collections[0].get_sizes()[0]) if len(ax.collections[0].get_sizes()) else 36.0
    return [{"data": {"values": values},
             "mark": {"type": "point", "filled": True, "size": size * (110 / 72) ** 2,  # points² at the PNG's 110 dpi, in pixels²
                      "opacity": alpha if alpha is not None else 1, "tooltip": True}}]


def _area_layers(ax, kx, names, colors):
    import matplotlib.collections
    import numpy as np
    values = []
    for c in ax.collections:
        paths = c.get_paths()
        if type(c) is not matplotlib.collections.PolyCollection or len(paths) != 1:
            raise _NoSpec("a collection other than one filled band")
        v = paths[0].vertices
        n = (len(v) - 3) // 2
        if n < 2 or len(v) != 2 * n + 3 or not np.allclose(v[1:n + 1, 0], v[n + 2:2 * n + 2, 0][::-1]):
            raise _NoSpec("a filled shape that is no band over x")
        name = _series_name(c, names, "area")
        lower, upper = v[1:n + 1, 1], v[n + 2:2 * n + 2, 1][::-1]
        for x, lo, hi in zip(v[1:n + 1, 0], lower, upper):
            values.append({"x": _axis_value(kx, x), "series": name, "base": table_cell(float(lo)),
                           "top": table_cell(float(hi)), "value": table_cell(float(hi - lo))})
        names.append(name)
        colors.append(_hex(c.get_facecolor()[0]))
    alpha = ax.collections[0].get_alpha()
    return [{"data": {"values": values},
             "mark": {"type": "area", "opacity": alpha if alpha is not None else 1, "tooltip": True},
             "encoding": {"y": {"field": "top", "type": "quantitative"}, "y2": {"field": "base"},
                          "tooltip": [{"field": "x", "type": kx[0], "title": ax.get_xlabel() or "x"},
                                      {"field": "series", "type": "nominal", "title": "series"},
                                      {"field": "value", "type": "quantitative", "title": ax.get_ylabel() or "value", "format": ",.6~g"}]}}]


def _box_spec(ax):
    """A vertical box plot as matplotlib's boxplot draws it, seven lines a
    box (the box, two whiskers, two caps, the median, the outliers), read
    back as each box's five numbers and its outliers."""
    import numpy as np
    lines = ax.get_lines()
    if not lines or len(lines) % 7 or ax.patches or ax.collections:
        raise _NoSpec("no box plot")
    kx = _axis_kind(ax.xaxis)
    if kx[0] == "quantitative" and ax.xaxis.get_ticklocs().size:
        kx = ("nominal", dict(zip(ax.xaxis.get_ticklocs(), [t.get_text() for t in ax.xaxis.get_ticklabels()])))
    if kx[0] != "nominal":
        raise _NoSpec("boxes along no category axis")
    boxes, outliers = [], []
    for i in range(0, len(lines), 7):
        box, w1, w2, c1, c2, med, fl = lines[i:i + 7]
        bx, by = np.asarray(box.get_xdata(), float), np.asarray(box.get_ydata(), float)
        if len(bx) != 5 or bx[0] != bx[-1] or by[0] != by[-1] or fl.get_linestyle() not in ("None", " ", ""):
            raise _NoSpec("a notched or horizontal box, or no box plot")
        center = (bx.min() + bx.max()) / 2
        whiskers = np.concatenate([np.asarray(w.get_ydata(), float) for w in (w1, w2)])
        if any(len(set(np.asarray(w.get_xdata(), float))) != 1 for w in (w1, w2)) or len(set(np.asarray(med.get_ydata(), float))) != 1:
            raise _NoSpec("no vertical box")
        category = _axis_value(kx, center)
        boxes.append({"category": category, "lower": table_cell(float(whiskers.min())), "q1": table_cell(float(by.min())),
                      "median": table_cell(float(np.asarray(med.get_ydata(), float)[0])), "q3": table_cell(float(by.max())),
                      "upper": table_cell(float(whiskers.max()))})
        outliers += [{"category": category, "value": table_cell(float(y))} for y in np.asarray(fl.get_ydata(), float)]
    ink, median = _hex(lines[0].get_color()), _hex(lines[5].get_color())
    order = [b["category"] for b in boxes]
    x = {"field": "category", "type": "nominal", "title": ax.get_xlabel() or None, "sort": order, "axis": {"labelAngle": 0}}
    y = {"type": "quantitative", "title": ax.get_ylabel() or None, "scale": {"zero": False}}
    stats = [{"field": "category", "type": "nominal", "title": ax.get_xlabel() or "box"}] + [
        {"field": f, "type": "quantitative", "title": t, "format": ",.6~g"}
        for f, t in (("upper", "upper whisker"), ("q3", "3rd quartile"), ("median", "median"), ("q1", "1st quartile"), ("lower", "lower whisker"))]
    def flat(band, color, stroke):
        return {"type": "bar", "width": {"band": band}, "fill": "transparent", "stroke": color, "strokeWidth": stroke}

    def part(mark, enc):
        return {"mark": mark, "encoding": dict(enc, x=x, tooltip=stats)}
    layers = [  # the boxes' layers share their data, given on the spec (see _spec)
        part({"type": "rule", "color": ink}, {"y": dict(y, field="lower"), "y2": {"field": "q1"}}),
        part({"type": "rule", "color": ink}, {"y": dict(y, field="q3"), "y2": {"field": "upper"}}),
        # Caps, box and median as bars a fraction of the band wide (as
        # matplotlib's are of the gap between boxes), whatever the width.
        part(flat(0.25, ink, 1), {"y": dict(y, field="lower"), "y2": {"field": "lower"}}),
        part(flat(0.25, ink, 1), {"y": dict(y, field="upper"), "y2": {"field": "upper"}}),
        part(dict(flat(0.5, ink, 1), tooltip=True), {"y": dict(y, field="q1"), "y2": {"field": "q3"}}),
        part(flat(0.5, median, 1.5), {"y": dict(y, field="median"), "y2": {"field": "median"}}),
    ]
    if outliers:
        layers.append({"data": {"values": outliers}, "mark": {"type": "point", "color": ink, "tooltip": True},
                       "encoding": {"x": x, "y": dict(y, field="value"),
                                    "tooltip": [stats[0], {"field": "value", "type": "quantitative", "title": "outlier", "format": ",.6~g"}]}})
    return layers, boxes


def _pie_spec(ax, names, colors):
    import math
    import matplotlib.patches
    wedges = [p for p in ax.patches if isinstance(p, matplotlib.patches.Wedge)]
    if not wedges or len(wedges) != len(ax.patches) or ax.collections or ax.get_lines() or len({p.r for p in wedges}) != 1:
        raise _NoSpec("a pie mixed with other marks")
    values = []
    for i, w in enumerate(wedges):
        name = _series_name(w, names, "slice")
        values.append({"series": name, "share": table_cell(round((w.theta2 - w.theta1) / 360.0, 6)), "order": i})
        names.append(name)
        colors.append(_hex(w.get_facecolor()))
    start = math.radians(90 - wedges[0].theta1)  # matplotlib turns anticlockwise from 3 o'clock
    return [{"data": {"values": values},
             "mark": {"type": "arc", "tooltip": True},
             "encoding": {"theta": {"field": "share", "type": "quantitative", "stack": True,
                                    "scale": {"type": "linear", "domain": [0, 1], "range": [start, start - 2 * math.pi]}},
                          "order": {"field": "order"},
                          "tooltip": [{"field": "series", "type": "nominal", "title": "slice"},
                                      {"field": "share", "type": "quantitative", "title": "share", "format": ".1%"}]}}]


def _measure_label(ax, names):
    """The y axis's title: what the PNG's axis says, unless that is the name
    of one of several series (pandas titles the axis after the first), which
    would tell a hover over any other series the wrong name."""
    label = ax.get_ylabel() or None
    if len(names) > 1 and label in names:
        return None
    return label


def _years(layers):
    """Whether every x of the layers is a whole number from 1000 to 2999:
    years, to be shown without a thousands separator."""
    xs = [v.get("x") for layer in layers for v in layer.get("data", {}).get("values", [])]
    xs = [x for x in xs if x is not None]
    return bool(xs) and all(isinstance(x, (int, float)) and float(x).is_integer() and 1000 <= x <= 2999 for x in xs)


def _fit_y_to_zoom(layers):
    """Keep only the points inside the zoomed x range, so that the y scale,
    which follows the data it is given, fits what is in view: zooming into
    a quiet stretch of a series with one spike shows the stretch, not a
    flat line under the spike's height. (A scale bound to the zoom cannot
    do it: Vega-Lite only binds the scales the zoom drives, here x.) A
    line ends at its last point in view instead of running off the edge; a
    double-click, which empties the zoom, brings every point back."""
    for layer in layers:
        if "data" in layer:
            layer.setdefault("transform", []).append({"filter": {"param": "zoom"}})


def vega_lite_spec(fig):
    """The Vega-Lite spec of a saved figure, or None when a spec would not
    show what the PNG shows."""
    try:
        return _spec(fig)
    except _NoSpec:
        return None


def _spec(fig):
    import matplotlib.patches
    ax = _content_axes(fig)
    names, colors, notes = [], [], [t.get_text() for t in fig.texts if t.get_text().strip()]
    zoom, axes_enc, boxes = None, True, None
    if ax.patches and all(isinstance(p, matplotlib.patches.Wedge) for p in ax.patches):
        layers, axes_enc = _pie_spec(ax, names, colors), False
    elif ax.patches:
        layers, axes_enc = _bar_spec(ax, names, colors), False
    else:
        kx, ky = _axis_kind(ax.xaxis), _axis_kind(ax.yaxis)
        if ky[0] != "quantitative" or kx[0] == "nominal":
            raise _NoSpec("a category axis under lines or points")
        collections = {type(c).__name__ for c in ax.collections}
        if collections == {"PathCollection"}:
            layers, zoom = _scatter_layers(ax, kx, ky, names, colors, notes), ["x", "y"]
        elif collections == {"PolyCollection"}:
            layers, zoom = _area_layers(ax, kx, names, colors), ["x"]
        elif collections:
            raise _NoSpec("an unknown collection")
        else:
            layers, zoom = [], ["x"]
        try:
            layers += _line_layers(ax, kx, names, colors, notes)
        except _NoSpec:
            if layers:
                raise
            (layers, boxes), zoom, axes_enc = _box_spec(ax), None, False
        if not layers:
            raise _NoSpec("nothing drawn")
    if len(set(names)) != len(names):
        raise _NoSpec("two series of one name")
    legend = _legend(ax)
    if legend is None and not axes_enc and ax.patches and not ax.containers:
        legend = {"title": None}  # a pie's labels sit by its slices; the legend names them here
    enc = {"color": _color(names, colors, legend)} if names else {}  # a box plot's colours are its marks'
    if axes_enc:
        ylabel = _measure_label(ax, names)
        enc["x"] = {"field": "x", "type": kx[0], "title": ax.get_xlabel() or None}
        enc["y"] = {"field": "y", "type": "quantitative", "title": ylabel, "scale": {"zero": False}}
        tooltip = [{"field": "x", "type": kx[0], "title": ax.get_xlabel() or "x"},
                   {"field": "y", "type": "quantitative", "title": ylabel or ("value" if len(names) > 1 else "y"), "format": ",.6~g"}]
        if kx[0] == "quantitative" and _years(layers):
            # Years read as 1970, not as the number 1,970.
            enc["x"]["axis"] = {"format": "d"}
            tooltip[0]["format"] = "d"
        if len(names) > 1:
            tooltip.insert(0, {"field": "series", "type": "nominal", "title": "series"})
        for layer in layers:
            layer.setdefault("encoding", {})
            layer["encoding"].setdefault("tooltip", tooltip)
            if "y" in layer["encoding"]:  # an area's band
                layer["encoding"]["y"]["title"] = ylabel
    params = []
    if zoom:
        params.append({"name": "zoom", "select": {"type": "interval", "encodings": zoom}, "bind": "scales"})
    if zoom == ["x"]:
        _fit_y_to_zoom(layers)
    if legend is not None and len(names) > 1:
        params.append({"name": "legend", "select": {"type": "point", "fields": ["series"]}, "bind": "legend"})
        for layer in layers:
            # A series clicked off fades. A line fades its stroke only: its
            # hover points stay as unseen as the PNG's (no markers).
            shown = layer["mark"].get("opacity", 1)  # the PNG's alpha, while every series is on
            channel = "strokeOpacity" if layer["mark"]["type"] == "line" else "opacity"
            layer.setdefault("encoding", {})[channel] = {"condition": {"param": "legend", "value": shown}, "value": 0.15 * shown}
    if params:
        layers[0]["params"] = params
    title = ax.get_title() or (fig._suptitle.get_text() if getattr(fig, "_suptitle", None) else "")
    spec = {"$schema": VL_SCHEMA, "title": {"text": title, "subtitle": notes} if notes else title,
            "width": "container", "height": 320, "autosize": {"type": "fit-x", "contains": "padding"},
            "encoding": enc}
    if boxes:
        spec["data"] = {"values": boxes}
    if len(layers) == 1:
        layer = layers[0]
        spec["encoding"] = {**enc, **layer.pop("encoding", {})}
        spec.update(layer)
    else:
        spec["layer"] = layers
    return spec


def wb_vega_lite(fig, path):
    """Write path's .vl.json beside a saved matplotlib chart: what it draws
    (lines, bars, a histogram, points with a trend line, stacked areas, box
    plots, a pie) as a Vega-Lite spec with its data, so the page can show the chart
    with tooltips, zoom and a clickable legend. A figure a spec would not
    show faithfully gets none; its PNG stays."""
    spec = vega_lite_spec(fig)
    if spec is None:
        return None
    out = os.path.splitext(str(path))[0] + ".vl.json"
    with open(out, "w") as f:
        json.dump(spec, f, allow_nan=False)
    return out
