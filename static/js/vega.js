// Interactive charts: a figure with data-vega-lite="<url of a Vega-Lite
// spec>" is drawn by the vendored vega-embed over its PNG (hover tooltips,
// zoom and pan, a clickable legend, PNG/SVG download). The vega scripts
// load only when a page has such a figure; without them the PNG stays.
(function () {
  "use strict";

  var me = document.currentScript;
  var libs = (me && me.getAttribute("data-libs") || "").split(" ").filter(Boolean);
  var loading = null;

  // load adds the vega scripts one after another (each needs the last).
  function load() {
    if (loading) return loading;
    loading = libs.reduce(function (p, src) {
      return p.then(function () {
        return new Promise(function (resolve, reject) {
          var s = document.createElement("script");
          s.src = src;
          s.onload = resolve;
          s.onerror = reject;
          document.head.appendChild(s);
        });
      });
    }, Promise.resolve());
    return loading;
  }

  function dark() {
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  }

  // refusingLoader is a vega loader that loads nothing: a chart's data is
  // inline, and a URL in a spec would be fetched with the reader's cookies,
  // a channel from a shared page back to whoever wrote the spec.
  function refusingLoader() {
    var loader = window.vega.loader();
    var refuse = function () { return Promise.reject(new Error("charts load no URLs")); };
    loader.load = loader.sanitize = loader.http = loader.file = refuse;
    return loader;
  }

  function draw(fig) {
    fig.setAttribute("data-vega-state", "loading");
    var url = fig.getAttribute("data-vega-lite");
    Promise.all([load(), fetch(url, { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("spec " + r.status);
      return r.json();
    })]).then(function (got) {
      var view = fig.querySelector(".vega-view");
      if (!view) {
        view = document.createElement("div");
        view.className = "vega-view";
        fig.insertBefore(view, fig.firstChild);
      }
      // A spec is written by user code: its own embed options (usermeta)
      // would override the page's and turn "View Source" back on, so they go.
      var spec = got[1];
      delete spec.usermeta;
      // ast + the interpreter: vega evaluates expressions without eval,
      // as the page's CSP (script-src 'self') requires.
      // The dark theme's light text on the card's own ground (its #333
      // would be a grey block on the dark page), with a quieter grid.
      return window.vegaEmbed(view, spec, {
        mode: "vega-lite", loader: refusingLoader(),
        ast: true, expr: window.vega.expressionInterpreter, theme: dark() ? "dark" : undefined,
        config: dark() ? { background: "transparent", axis: { gridColor: "#343a46", domainColor: "#6b7280", tickColor: "#6b7280" } }
          : { background: "transparent" },
        actions: { export: true, source: false, compiled: false, editor: false }, renderer: "svg",
        downloadFileName: chartName(fig),
      });
    }).then(function (result) {
      fig._vega = result;
      // vega-embed's menu is a <details> whose <summary> holds only an
      // icon: give it a name for screen readers (axe "summary-name").
      var menu = fig.querySelector(".vega-embed details > summary");
      if (menu) menu.setAttribute("aria-label", "Chart actions: save as PNG or SVG");
      var img = fig.querySelector("img");
      if (img) img.hidden = true;
      if (fig.querySelector('[data-testid="zoom-hint"]') === null && hasZoom(result.spec || {})) {
        var hint = document.createElement("span");
        hint.className = "chart-hint muted small";
        hint.setAttribute("data-testid", "zoom-hint");
        var cap = fig.querySelector("figcaption");
        if (cap) cap.insertBefore(hint, cap.firstChild);
      }
      fig.setAttribute("data-vega-state", "ready");
    }).catch(function () {
      fig.setAttribute("data-vega-state", "failed"); // the PNG stays
    });
  }

  // hasZoom reports a spec whose scales follow the wheel and a drag.
  function hasZoom(spec) {
    return JSON.stringify(spec.params || (spec.layer && spec.layer[0] && spec.layer[0].params) || []).indexOf('"scales"') >= 0;
  }

  // chartName is the stem of the chart's own file ("close_by_symbol"), so
  // a PNG or SVG saved from the chart's menu is not "visualization.png".
  function chartName(fig) {
    var name = fig.querySelector(".chart-name");
    var stem = name ? name.textContent.trim().replace(/\.png$/i, "") : "";
    return stem || (window.workbenchDownloadStem ? window.workbenchDownloadStem(fig) : "chart");
  }

  // The mouse wheel zooms a chart only once the chart was clicked: until
  // then it scrolls the page, as the wheel does everywhere else. A click
  // elsewhere, or Esc, gives the wheel back to the page.
  document.addEventListener("wheel", function (e) {
    var fig = e.target.closest && e.target.closest("figure[data-vega-lite]");
    if (fig && !fig.classList.contains("chart-active")) e.stopPropagation();
  }, { capture: true, passive: true });
  document.addEventListener("pointerdown", function (e) {
    var fig = e.target.closest && e.target.closest('figure[data-vega-state="ready"]');
    document.querySelectorAll("figure.chart-active").forEach(function (f) { if (f !== fig) f.classList.remove("chart-active"); });
    if (fig) fig.classList.add("chart-active");
  }, true);
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape") document.querySelectorAll("figure.chart-active").forEach(function (f) { f.classList.remove("chart-active"); });
  });

  function prepare(root) {
    if (!root.querySelectorAll || !libs.length) return;
    root.querySelectorAll("figure[data-vega-lite]:not([data-vega-state])").forEach(draw);
  }

  // A theme changed while the page is open redraws the charts in the new
  // one: the dark theme's light text would not read on the light card.
  function redraw() {
    document.querySelectorAll('figure[data-vega-state="ready"]').forEach(function (fig) {
      if (fig._vega) fig._vega.finalize();
      fig._vega = null;
      draw(fig);
    });
  }

  if (window.matchMedia) {
    var scheme = window.matchMedia("(prefers-color-scheme: dark)");
    if (scheme.addEventListener) scheme.addEventListener("change", redraw);
  }
  document.addEventListener("DOMContentLoaded", function () { prepare(document); });
  document.addEventListener("htmx:afterSwap", function (e) { prepare(e.target); });
  document.addEventListener("htmx:sseMessage", function (e) { prepare(e.target); });
})();
