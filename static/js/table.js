// DataFrame tables of the answers: sort by a header click, page through
// long tables, copy or download the result as CSV. A table that holds only
// the first rows of a result kept whole as CSV loads that CSV on its first
// sort, so sorting and downloading cover every row. Without this file a
// table still shows, whole, scrolling in its box.
(function () {
  "use strict";

  var PAGE = 50;
  // A kept CSV up to this size is loaded to sort in the page; a bigger one
  // sorts the rows shown and says so.
  var LOAD_MAX = 40 << 20;

  // model holds a table's rows as data, so that a page shows 50 of them
  // however many the result has.
  var models = new WeakMap();

  function cellOf(el) {
    return {
      t: el.textContent,
      v: el.hasAttribute("data-v") ? el.getAttribute("data-v") : el.textContent,
      m: el.classList.contains("df-missing")
    };
  }

  function model(df) {
    var m = models.get(df);
    if (m) return m;
    var heads = df.querySelectorAll("thead th");
    m = {
      numeric: Array.prototype.map.call(heads, function (h) { return h.classList.contains("num"); }),
      index: Array.prototype.map.call(heads, function (h) { return h.classList.contains("df-index"); }),
      rows: Array.prototype.map.call(df.querySelector("tbody").rows, function (r) {
        return Array.prototype.map.call(r.cells, cellOf);
      }),
      whole: !df.dataset.cut
    };
    models.set(df, m);
    return m;
  }

  function td(m, i, c) {
    var el = document.createElement(m.index[i] ? "th" : "td");
    if (m.index[i]) { el.scope = "row"; el.className = "df-index"; }
    if (c.m) {
      el.className = "df-missing";
      el.textContent = "NaN";
      el.setAttribute("data-v", "");
      return el;
    }
    if (m.numeric[i]) el.classList.add("num");
    el.textContent = c.t;
    el.setAttribute("data-v", c.v);
    return el;
  }

  // page shows one page of the table and the pager under it.
  function page(df, n) {
    var m = model(df);
    var pages = Math.max(1, Math.ceil(m.rows.length / PAGE));
    n = Math.max(0, Math.min(n, pages - 1));
    var body = df.querySelector("tbody");
    body.replaceChildren.apply(body, m.rows.slice(n * PAGE, (n + 1) * PAGE).map(function (row) {
      var tr = document.createElement("tr");
      row.forEach(function (c, i) { tr.appendChild(td(m, i, c)); });
      return tr;
    }));
    var pager = df.querySelector(".df-pager");
    if (pages <= 1) { if (pager) pager.remove(); return; }
    if (!pager) {
      pager = document.createElement("div");
      pager.className = "df-pager small";
      pager.innerHTML = '<button type="button" class="btn btn-ghost btn-sm df-prev">Previous</button>' +
        '<span class="muted df-page"></span>' +
        '<button type="button" class="btn btn-ghost btn-sm df-next">Next</button>';
      df.appendChild(pager);
    }
    df.dataset.page = n;
    pager.querySelector(".df-page").textContent = "Rows " + (n * PAGE + 1).toLocaleString("en-US") + "–" +
      Math.min(m.rows.length, (n + 1) * PAGE).toLocaleString("en-US") + " of " + m.rows.length.toLocaleString("en-US");
    pager.querySelector(".df-prev").disabled = n === 0;
    pager.querySelector(".df-next").disabled = n === pages - 1;
  }

  function compare(numeric, dir) {
    return function (a, b) {
      if (a.m || b.m) return a.m - b.m; // missing values last, either way
      if (numeric) return dir * (parseFloat(a.v) - parseFloat(b.v));
      return dir * a.v.localeCompare(b.v, undefined, { numeric: true });
    };
  }

  // sort orders every row by a column: numbers as numbers, missing values
  // last; a second click reverses the order.
  function sort(th) {
    var df = th.closest(".df");
    ensureWhole(df).then(function () {
      var m = model(df);
      var col = Array.prototype.indexOf.call(th.parentNode.children, th);
      var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
      th.parentNode.querySelectorAll("th").forEach(function (h) { h.setAttribute("aria-sort", "none"); });
      th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
      var cmp = compare(m.numeric[col], dir);
      m.rows.sort(function (a, b) { return cmp(a[col], b[col]); });
      page(df, 0);
    });
  }

  // ensureWhole loads the kept CSV of a table that shows only the first
  // rows of its result, once, when it is small enough to sort in the page.
  function ensureWhole(df) {
    var m = model(df);
    var link = df.querySelector(".df-full-csv");
    if (m.whole || m.loading) return m.loading || Promise.resolve();
    if (!link || Number(df.dataset.csvBytes || 0) > LOAD_MAX) {
      note(df, "Sorted: the first " + m.rows.length.toLocaleString("en-US") + " rows. The download has them all.");
      return Promise.resolve();
    }
    note(df, "Loading all " + Number(df.dataset.totalRows).toLocaleString("en-US") + " rows to sort them…");
    m.loading = fetch(link.getAttribute("href"), { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.text();
    }).then(function (text) {
      var rows = parseCSV(text);
      if (!rows.length || rows[0].length !== m.numeric.length) {
        throw new Error("the CSV has other columns than the table"); // a table cut sideways
      }
      m.rows = rows.slice(1).filter(function (r) { return r.length === m.numeric.length; })
        .map(function (r) { return r.map(function (v, i) { return csvCell(m, i, v); }); });
      m.whole = true;
      df.querySelector(".df-shape").textContent = df.dataset.shape;
      note(df, "");
    }).catch(function () {
      note(df, "The whole result could not be loaded; sorted: the rows shown.");
    });
    return m.loading;
  }

  function note(df, text) {
    var el = df.querySelector(".df-sortnote");
    if (!el) {
      el = document.createElement("p");
      el.className = "df-note df-sortnote muted small";
      el.setAttribute("role", "status");
      df.querySelector(".df-bar").insertAdjacentElement("afterend", el);
    }
    el.textContent = text;
    el.hidden = text === "";
  }

  // csvCell is a value of the kept CSV as the page shows it: numbers with
  // six significant digits, as the server formats them, in full for sorting.
  function csvCell(m, i, v) {
    if (v === "") return { t: "", v: "", m: true };
    if (m.numeric[i] && v !== "" && isFinite(Number(v))) {
      var n = Number(v);
      return { t: Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(6))), v: v, m: false };
    }
    return { t: v, v: v, m: false };
  }

  // parseCSV reads RFC 4180 CSV, as pandas writes it.
  function parseCSV(text) {
    var rows = [], row = [], field = "", q = false;
    for (var i = 0; i < text.length; i++) {
      var ch = text[i];
      if (q) {
        if (ch === '"' && text[i + 1] === '"') { field += '"'; i++; }
        else if (ch === '"') q = false;
        else field += ch;
      } else if (ch === '"') q = true;
      else if (ch === ",") { row.push(field); field = ""; }
      else if (ch === "\n" || ch === "\r") {
        if (ch === "\r" && text[i + 1] === "\n") i++;
        row.push(field); rows.push(row); row = []; field = "";
      } else field += ch;
    }
    if (field !== "" || row.length) { row.push(field); rows.push(row); }
    return rows;
  }

  function csvField(s) {
    return /[",\n\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }

  // toCSV writes every row the table holds, not only the page shown.
  function toCSV(df) {
    var head = Array.prototype.map.call(df.querySelectorAll("thead th"), function (th) { return csvField(th.textContent); });
    var lines = [head.join(",")];
    model(df).rows.forEach(function (r) {
      lines.push(r.map(function (c) { return csvField(c.m ? "" : c.v); }).join(","));
    });
    return lines.join("\n") + "\n";
  }

  function prepare(root) {
    (root.querySelectorAll ? root.querySelectorAll(".df:not([data-ready])") : []).forEach(function (df) {
      df.setAttribute("data-ready", "");
      df.querySelectorAll(".df-copy, .df-download").forEach(function (b) { b.hidden = false; });
      df.querySelectorAll("thead th").forEach(function (th) { th.tabIndex = 0; });
      var full = df.querySelector(".df-full-csv");
      if (full) full.setAttribute("download", downloadName(df));
      page(df, 0);
    });
  }

  // downloadName names a table's CSV after the question of its answer, or
  // "step" for code the user ran, numbered when the answer has several.
  function downloadName(df) {
    var name = window.workbenchDownloadStem ? window.workbenchDownloadStem(df) : "table";
    var answer = df.closest(".answer");
    var all = answer ? answer.querySelectorAll(".df") : [df];
    var n = Array.prototype.indexOf.call(all, df);
    return name + (all.length > 1 ? "-" + (n + 1) : "") + ".csv";
  }

  function flash(button, text) {
    var was = button.textContent;
    button.textContent = text;
    setTimeout(function () { button.textContent = was; }, 1500);
  }

  document.addEventListener("click", function (e) {
    var t = e.target;
    var df = t.closest && t.closest(".df");
    if (!df) return;
    if (t.closest("thead th")) {
      sort(t.closest("thead th"));
    } else if (t.closest(".df-copy")) {
      var done = function () { flash(t, "Copied"); };
      if (navigator.clipboard) {
        navigator.clipboard.writeText(toCSV(df)).then(done, function () { flash(t, "Copy failed"); });
      }
    } else if (t.closest(".df-download")) {
      var a = document.createElement("a");
      a.href = URL.createObjectURL(new Blob([toCSV(df)], { type: "text/csv" }));
      a.download = downloadName(df);
      document.body.appendChild(a);
      a.click();
      a.remove();
    } else if (t.closest(".df-prev")) {
      page(df, Number(df.dataset.page) - 1);
    } else if (t.closest(".df-next")) {
      page(df, Number(df.dataset.page) + 1);
    }
  });

  document.addEventListener("keydown", function (e) {
    var th = e.target.closest && e.target.closest(".df thead th");
    if (th && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); sort(th); }
  });

  document.addEventListener("DOMContentLoaded", function () { prepare(document); });
  document.addEventListener("htmx:afterSwap", function (e) { prepare(e.target); });
  document.addEventListener("htmx:sseMessage", function (e) { prepare(e.target); });
  // Exposed for tests.
  window.workbenchTableCSV = function (table) { return toCSV(table.closest(".df")); };
  window.workbenchTableName = downloadName;
})();
