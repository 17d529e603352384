// Steps: "Edit" on a finished code cell opens an editor with its code in
// the cell; "Run" (or Ctrl/Cmd+Enter) posts the code to run as written in
// the conversation's session, and the step appears at the bottom like an
// answer, streaming. "Run again" posts the cell's code as it is. A refusal
// (empty code, a turn still running) comes back as a toast, and the
// editor stays open with what was typed.
(function () {
  "use strict";

  function stepsURL() {
    var conv = document.querySelector(".conversation[data-conversation-id]");
    return conv ? "/conversations/" + conv.dataset.conversationId + "/steps" : "";
  }

  function codeOf(cell) {
    var copy = cell.querySelector(".cell-actions [data-copy]");
    return copy ? copy.dataset.copy : "";
  }

  function csrf() {
    var m = document.querySelector('meta[name="csrf-token"]');
    return m ? m.content : "";
  }

  // run posts code as a step; source is the button that asked, which gets
  // htmx's request events and stays disabled meanwhile.
  function run(source, code) {
    var url = stepsURL();
    if (!url || source.disabled) return;
    source.disabled = true;
    htmx.ajax("POST", url, {
      source: source, target: "#messages", swap: "beforeend",
      values: { code: code }, headers: { "X-CSRF-Token": csrf() }
    });
  }

  // drafts holds the text of each open editor by cell id, so that an
  // editor survives its answer being rendered again (a late update, a
  // file copied again) with what was typed.
  var drafts = {};

  function openEditor(cell, draft) {
    var existing = cell.querySelector(".step-editor textarea");
    if (existing) { existing.focus(); return; }
    var id = "step-input-" + (cell.dataset.cellId || Date.now());
    var ed = document.createElement("div");
    ed.className = "step-editor";
    ed.innerHTML =
      '<label class="sr-only"></label>' +
      '<textarea spellcheck="false" autocapitalize="off" autocomplete="off" data-testid="step-input"></textarea>' +
      '<div class="step-editor-bar">' +
      '<span class="hint muted small">Runs as written in this conversation’s session · Ctrl+Enter runs · Esc cancels</span>' +
      '<button type="button" class="btn btn-sm" data-step-cancel>Cancel</button>' +
      '<button type="button" class="btn btn-primary btn-sm" data-step-run data-testid="step-run">Run</button>' +
      "</div>";
    var label = ed.querySelector("label"), ta = ed.querySelector("textarea");
    label.htmlFor = ta.id = id;
    label.textContent = "Code to run";
    ta.value = draft != null ? draft : codeOf(cell);
    drafts[cell.dataset.cellId] = ta.value;
    ta.rows = Math.min(Math.max(ta.value.split("\n").length + 1, 6), 24);
    var code = cell.querySelector(".cell-code");
    (code || cell.lastElementChild).insertAdjacentElement("afterend", ed);
    cell.open = true;
    cell.classList.add("editing");
    ta.focus();
    ta.setSelectionRange(ta.value.length, ta.value.length);
  }

  function closeEditor(cell) {
    delete drafts[cell.dataset.cellId];
    var ed = cell.querySelector(".step-editor");
    if (ed) ed.remove();
    cell.classList.remove("editing");
    var edit = cell.querySelector("[data-edit-step]");
    if (edit) edit.focus();
  }

  document.addEventListener("click", function (e) {
    var t = e.target.closest && e.target.closest("[data-edit-step], [data-run-again], [data-step-run], [data-step-cancel]");
    if (!t) return;
    var cell = t.closest(".cell");
    if (!cell) return;
    e.preventDefault();
    if (t.hasAttribute("data-edit-step")) openEditor(cell);
    else if (t.hasAttribute("data-run-again")) run(t, codeOf(cell));
    else if (t.hasAttribute("data-step-cancel")) closeEditor(cell);
    else run(t, cell.querySelector(".step-editor textarea").value);
  });

  document.addEventListener("keydown", function (e) {
    var ta = e.target;
    if (!ta.closest || !ta.closest(".step-editor") || ta.tagName !== "TEXTAREA") return;
    var cell = ta.closest(".cell");
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      run(cell.querySelector("[data-step-run]"), ta.value);
    } else if (e.key === "Escape") {
      e.preventDefault();
      closeEditor(cell);
    } else if (e.key === "Tab" && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) {
      // Tab indents, as in any code editor; Esc leaves the editor.
      e.preventDefault();
      ta.setRangeText("    ", ta.selectionStart, ta.selectionEnd, "end");
    }
  });

  document.addEventListener("htmx:afterRequest", function (e) {
    var src = e.detail.elt;
    if (!src.matches || !src.matches("[data-step-run], [data-run-again]")) return;
    src.disabled = false;
    // app.js shows a refusal as a toast, which htmx then counts as a
    // success: the status says whether the step started.
    var xhr = e.detail.xhr;
    if (!xhr || xhr.status < 200 || xhr.status >= 300) return;
    var cell = src.closest(".cell");
    if (cell && src.hasAttribute("data-step-run")) {
      delete drafts[cell.dataset.cellId];
      cell.querySelector(".step-editor").remove();
      cell.classList.remove("editing");
    }
    scrollPending = true;
  });

  // The new step is in the page once the answer is swapped in and settled:
  // only then is there a step to bring into view.
  var scrollPending = false;
  document.addEventListener("htmx:afterSettle", function () {
    if (!scrollPending) return;
    var last = document.querySelector("#messages .turn:last-child");
    if (!last) return;
    scrollPending = false;
    last.scrollIntoView({ block: "start" });
  });

  document.addEventListener("input", function (e) {
    var cell = e.target.closest && e.target.closest(".step-editor") && e.target.closest(".cell");
    if (cell) drafts[cell.dataset.cellId] = e.target.value;
  });

  function reopen() {
    Object.keys(drafts).forEach(function (id) {
      var cell = document.getElementById("cell-" + id);
      if (cell && !cell.querySelector(".step-editor")) openEditor(cell, drafts[id]);
    });
  }
  document.addEventListener("htmx:afterSettle", reopen);
  document.addEventListener("htmx:sseMessage", reopen);
})();
