// DataFrame tables of the answers: sort by a header click, page through
// long tables, copy or download what the table holds as CSV. Without this
// file a table still shows, whole, scrolling in its box.
(function () {
  "use strict";

  var PAGE = 50;

  function cellValue(cell) {
    return cell.hasAttribute("data-v") ? cell.getAttribute("data-v") : cell.textContent;
  }

  // Sort the rows by a column: numbers as numbers, missing values last;
  // a second click reverses the order.
  function sort(th) {
    var table = th.closest("table");
    var col = Array.prototype.indexOf.call(th.parentNode.children, th);
    var numeric = th.classList.contains("num");
    var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
    th.parentNode.querySelectorAll("th").forEach(function (h) { h.setAttribute("aria-sort", "none"); });
    th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellValue(a.cells[col]), y = cellValue(b.cells[col]);
      if (x === "" || y === "") return (x === "") - (y === "");
      if (numeric) return dir * (parseFloat(x) - parseFloat(y));
      return dir * x.localeCompare(y, undefined, { numeric: true });
    });
    rows.forEach(function (r) { body.appendChild(r); });
    page(table.closest(".df"), 0);
  }

  function csvField(s) {
    return /[",\n\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }

  // toCSV writes every row of the table, hidden pages included.
  function toCSV(table) {
    var lines = [];
    Array.prototype.forEach.call(table.rows, function (r) {
      lines.push(Array.prototype.map.call(r.cells, function (c) {
        return csvField(r.parentNode.tagName === "THEAD" ? c.textContent : cellValue(c));
      }).join(","));
    });
    return lines.join("\n") + "\n";
  }

  // page shows one page of a long table and the pager under it.
  function page(df, n) {
    var rows = df.querySelector("tbody").rows;
    var pages = Math.ceil(rows.length / PAGE);
    var pager = df.querySelector(".df-pager");
    if (pages <= 1) { if (pager) pager.remove(); return; }
    n = Math.max(0, Math.min(n, pages - 1));
    Array.prototype.forEach.call(rows, function (r, i) { r.hidden = i < n * PAGE || i >= (n + 1) * PAGE; });
    if (!pager) {
      pager = document.createElement("div");
      pager.className = "df-pager small";
      pager.innerHTML = '<button type="button" class="btn btn-ghost btn-sm df-prev">Previous</button>' +
        '<span class="muted df-page"></span>' +
        '<button type="button" class="btn btn-ghost btn-sm df-next">Next</button>';
      df.appendChild(pager);
    }
    df.dataset.page = n;
    pager.querySelector(".df-page").textContent = "Rows " + (n * PAGE + 1) + "–" + Math.min(rows.length, (n + 1) * PAGE) + " of " + rows.length;
    pager.querySelector(".df-prev").disabled = n === 0;
    pager.querySelector(".df-next").disabled = n === pages - 1;
  }

  function prepare(root) {
    (root.querySelectorAll ? root.querySelectorAll(".df:not([data-ready])") : []).forEach(function (df) {
      df.setAttribute("data-ready", "");
      df.querySelectorAll(".df-copy, .df-download").forEach(function (b) { b.hidden = false; });
      df.querySelectorAll("thead th").forEach(function (th) { th.tabIndex = 0; });
      page(df, 0);
    });
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
    var table = df.querySelector("table");
    if (t.closest("thead th")) {
      sort(t.closest("thead th"));
    } else if (t.closest(".df-copy")) {
      var done = function () { flash(t, "Copied"); };
      if (navigator.clipboard) {
        navigator.clipboard.writeText(toCSV(table)).then(done, function () { flash(t, "Copy failed"); });
      }
    } else if (t.closest(".df-download")) {
      var a = document.createElement("a");
      a.href = URL.createObjectURL(new Blob([toCSV(table)], { type: "text/csv" }));
      a.download = "table.csv";
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
  window.workbenchTableCSV = toCSV;
})();
