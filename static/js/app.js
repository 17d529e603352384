// Small behaviours that htmx attributes cannot express. The app works
// without this file; it only makes things smoother.
(function () {
  "use strict";

  // Errors answered to htmx requests are alert fragments: show them as a
  // toast instead of swapping them into the target.
  document.addEventListener("htmx:beforeSwap", function (e) {
    var xhr = e.detail.xhr;
    if (xhr.status >= 400) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
      e.detail.target = document.getElementById("toasts");
      e.detail.swapOverride = "beforeend";
    }
  });

  // A request that never reached the server (offline, server restarting).
  document.addEventListener("htmx:sendError", function () {
    toast("The server could not be reached. Check your connection and try again.");
  });

  function toast(message) {
    var box = document.getElementById("toasts");
    if (!box) return;
    var el = document.createElement("div");
    el.className = "toast toast-error";
    el.setAttribute("role", "alert");
    el.textContent = message;
    box.appendChild(el);
  }

  // Toasts leave by themselves after a while.
  new MutationObserver(function (records) {
    records.forEach(function (r) {
      r.addedNodes.forEach(function (n) {
        if (n.nodeType === 1) setTimeout(function () { n.remove(); }, 8000);
      });
    });
  }).observe(document.getElementById("toasts") || document.createElement("div"), { childList: true });

  // A running step's output follows its end, as a terminal does, until
  // the reader scrolls it up: then it stays where they put it, and
  // following starts again once they scroll back to the end. Each update
  // replaces the answer, whose new output would open at its top, so where
  // each output was is read just before the swap and put back after it.
  // A finished step's output is left alone: it opens at its top, where
  // describe()'s header and a frame's first rows are.
  var places = {}; // output key -> {top (-1: at the end), left}
  // outputKey names an output across swaps: its cell, and which of the
  // cell's outputs it is.
  function outputKey(o) {
    var cell = o.closest(".cell");
    if (!cell) return "";
    return cell.dataset.cellId + ":" + Array.prototype.indexOf.call(cell.querySelectorAll(".cell-output"), o);
  }
  function rememberOutput() {
    places = {};
    document.querySelectorAll(".cell-output[data-live]").forEach(function (o) {
      var atEnd = o.scrollTop + o.clientHeight >= o.scrollHeight - 4;
      places[outputKey(o)] = { top: atEnd ? -1 : o.scrollTop, left: o.scrollLeft };
    });
  }
  // followOutput places each output new in the page once, as soon as the
  // swap is in: placed again later (htmx settles a swap a moment after
  // it), it would undo a scroll the reader made in between.
  function followOutput() {
    document.querySelectorAll(".cell-output[data-live]").forEach(function (o) {
      if (o._placed) return;
      o._placed = true;
      var at = places[outputKey(o)] || { top: -1, left: 0 };
      o.scrollTop = at.top < 0 ? o.scrollHeight : at.top;
      o.scrollLeft = at.left;
    });
  }
  document.addEventListener("htmx:sseBeforeMessage", rememberOutput);
  document.addEventListener("htmx:beforeSwap", rememberOutput);
  document.addEventListener("htmx:sseMessage", followOutput);
  document.addEventListener("htmx:afterSettle", followOutput);

  // Close the mobile navigation after choosing a conversation.
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest(".conv-link");
    var toggle = document.getElementById("nav-toggle");
    if (link && toggle) toggle.checked = false;
  });

  // Tables stack into cards on phones; each cell shows its column's name,
  // taken from the header, so the templates need not repeat it.
  function stackTables(root) {
    root.querySelectorAll("table.table:not(.stacked)").forEach(function (table) {
      var names = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
        return th.textContent.trim();
      });
      table.querySelectorAll("tbody tr").forEach(function (tr) {
        Array.prototype.forEach.call(tr.children, function (td, i) {
          if (!td.hasAttribute("data-label")) td.setAttribute("data-label", names[i] || "");
        });
      });
      table.classList.add("stacked");
    });
  }

  // Downloads made in the page (a table's CSV, a chart's PNG or SVG) are
  // named after the question of their answer, as an analyst would name
  // the file: "close_above_100.csv", not "table.csv"; a step of edited
  // code is "step", and a page with no question is named by its title.
  window.workbenchDownloadStem = function (el) {
    var turn = el.closest && el.closest(".turn");
    var q = turn && turn.querySelector(".bubble");
    var title = document.querySelector(".conversation-title");
    var text = q ? q.textContent : turn && turn.querySelector(".step-head") ? "step" : title ? title.textContent : "";
    var stem = text.toLowerCase().replace(/```[a-z]*/g, " ").replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 60).replace(/_+$/, "");
    return stem || "result";
  };

  // A box that scrolls (code, output, a wide table) must be reachable by
  // keyboard, or its hidden part cannot be read without a mouse.
  function focusScrollers(root) {
    root.querySelectorAll("pre, .cell-code, .cell-output, .table-card, .sample-scroll").forEach(function (el) {
      var scrolls = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
      if (scrolls && !el.hasAttribute("tabindex") && !el.querySelector("a, button, input, select, textarea")) {
        el.setAttribute("tabindex", "0");
      }
    });
  }

  function enhance(root) {
    stackTables(root);
    focusScrollers(root);
  }
  enhance(document);
  document.addEventListener("htmx:afterSettle", function (e) { enhance(e.target.parentNode || document); });
  window.addEventListener("resize", function () { focusScrollers(document); });

  // A read-only link just made is selected, ready to copy.
  document.addEventListener("htmx:afterSettle", function () {
    var input = document.querySelector("#share-list .share-new input:not([data-selected])");
    if (input) {
      input.setAttribute("data-selected", "");
      input.focus();
      input.select();
    }
  });

  // Keyboard: "/" focuses the search, Esc closes the drawers.
  document.addEventListener("keydown", function (e) {
    var t = e.target, typing = t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName);
    if (e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
      var search = document.getElementById("conversation-search");
      if (search) {
        e.preventDefault();
        document.getElementById("nav-toggle") && (document.getElementById("nav-toggle").checked = true);
        // Focused after the key is done with: a slash the browser still
        // types for it lands where the key was pressed, not in the search.
        // Should one still arrive there at once (keys sent as separate
        // keydown and char events, as automation does), it is dropped.
        var at = Date.now();
        search.addEventListener("beforeinput", function stray(ev) {
          search.removeEventListener("beforeinput", stray);
          if (ev.data === "/" && Date.now() - at < 500) ev.preventDefault();
        });
        setTimeout(function () { search.focus(); }, 0);
      }
    }
    if (e.key === "Escape" && t.id === "title-input") {
      // Esc cancels a rename, as the form's Cancel link does.
      var cancel = t.form && t.form.querySelector("a.btn-ghost");
      if (cancel) { e.preventDefault(); cancel.click(); }
      return;
    }
    if (e.key === "Escape") {
      ["files-toggle", "nav-toggle"].forEach(function (id) {
        var box = document.getElementById(id);
        if (box) box.checked = false;
      });
      document.querySelectorAll("details.export-menu[open], details.share-menu[open], details.user-menu[open]").forEach(function (d) {
        d.open = false;
        d.querySelector("summary").focus();
      });
    }
  });

  // The Export menu closes, as menus do, on a click outside it or once a
  // download is chosen; without script it closes on its own button.
  document.addEventListener("click", function (e) {
    document.querySelectorAll("details.export-menu[open]").forEach(function (d) {
      if (!d.contains(e.target) || e.target.closest("a[download]")) d.open = false;
    });
  });

  // A conversation open in a second tab follows it: a question asked in
  // another tab shows here too, its answer live. The page asks every few
  // seconds while it is in view for the turns after the last it shows; a
  // turn it already has (its own question) is not added twice.
  var messages = document.getElementById("messages");
  var following = false;
  function follow() {
    if (!messages || following || document.visibilityState !== "visible" || !window.htmx) return;
    if (document.querySelector("#composer.htmx-request")) return; // its own question is on its way
    var answers = messages.querySelectorAll(".answer[data-run-id]");
    var after = answers.length ? answers[answers.length - 1].getAttribute("data-run-id") : "";
    following = true;
    fetch(messages.getAttribute("data-turns-url") + "?after=" + encodeURIComponent(after), { credentials: "same-origin" })
      .then(function (r) { return r.status === 200 ? r.text() : ""; })
      .then(function (html) {
        if (!html) return;
        var box = document.createElement("template");
        box.innerHTML = html;
        box.content.querySelectorAll(".turn").forEach(function (turn) {
          var a = turn.querySelector(".answer[data-run-id]");
          if (a && document.getElementById("run-" + a.getAttribute("data-run-id"))) turn.remove();
        });
        if (!box.content.querySelector(".turn")) return;
        var wrap = document.createElement("div");
        wrap.appendChild(box.content.cloneNode(true));
        htmx.swap(messages, wrap.innerHTML, { swapStyle: "beforeend" });
      })
      .catch(function () {})
      .then(function () { following = false; });
  }
  if (messages && messages.hasAttribute("data-turns-url")) setInterval(follow, 3000);
  // Should a followed turn and the page's own answer cross, the later copy
  // goes: a turn shows once.
  document.addEventListener("htmx:afterSwap", function () {
    var seen = {};
    document.querySelectorAll("#messages .answer[data-run-id]").forEach(function (a) {
      var id = a.getAttribute("data-run-id");
      if (seen[id] && a.closest(".turn")) a.closest(".turn").remove();
      seen[id] = true;
    });
  });

  // A long conversation's page carries its latest turns. An address that
  // points to an earlier one (the gallery's "go to the message", a search
  // hit) loads earlier turns until it is there, then shows it.
  function seekHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    var target = document.getElementById(id);
    if (target) {
      document.removeEventListener("htmx:afterSettle", seekHash);
      target.scrollIntoView({ block: "start" });
      return;
    }
    var earlier = document.querySelector('[data-testid="earlier-turns"]');
    if (earlier) earlier.click();
    else document.removeEventListener("htmx:afterSettle", seekHash);
  }
  if (location.hash && document.getElementById("messages") && !document.getElementById(decodeURIComponent(location.hash.slice(1)))) {
    document.addEventListener("htmx:afterSettle", seekHash);
    seekHash();
  }

  // A conversation opens ready for the next question, unless the address
  // points somewhere in it (a search hit), which then keeps the view.
  var composer = document.getElementById("composer-input");
  if (composer && !location.hash && !document.querySelector("[autofocus]")) {
    composer.focus({ preventScroll: true });
  }
})();
