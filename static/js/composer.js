// The composer: Enter sends and Shift+Enter breaks the line, the box grows
// with its text, example questions and the analyst's suggested questions fill
// it, and it clears after a send.
(function () {
  "use strict";

  function grow(ta) {
    ta.style.height = "auto";
    ta.style.height = Math.min(ta.scrollHeight, window.innerHeight * 0.4) + "px";
  }

  // Enter while a turn runs or stops (Stop in place of Send) queues the
  // question: it is sent as soon as Send is back, and the hint under the
  // box says so until then. Esc takes it back.
  var queued = false;

  function hint(text) {
    var h = document.querySelector("#composer .composer-hint");
    if (!h) return;
    if (!h.dataset.idle) h.dataset.idle = h.textContent;
    h.textContent = text || h.dataset.idle;
    h.classList.toggle("composer-queued", !!text);
  }

  function sendQueued() {
    var send = document.querySelector('#composer [data-testid="send"]');
    var ta = document.getElementById("composer-input");
    if (!queued || !send || !ta) return;
    queued = false;
    hint("");
    if (ta.value.trim() !== "") ta.form.requestSubmit(send);
  }

  document.addEventListener("keydown", function (e) {
    var ta = e.target;
    if (ta.id === "composer-input" && e.key === "Escape" && queued) {
      queued = false;
      hint("");
      return;
    }
    if (ta.id !== "composer-input" || e.key !== "Enter" || e.shiftKey || e.isComposing) return;
    e.preventDefault();
    if (ta.value.trim() === "") return;
    var send = document.querySelector('#composer [data-testid="send"]');
    if (send) {
      ta.form.requestSubmit(send);
      return;
    }
    queued = true;
    hint("Queued: your question goes as soon as the current answer ends · Esc takes it back");
  });

  // Send comes back out of band when the running turn ends.
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    if (e.detail.target && e.detail.target.id === "composer-action") sendQueued();
  });
  document.addEventListener("htmx:afterSettle", sendQueued);

  document.addEventListener("input", function (e) {
    if (e.target.id === "composer-input") grow(e.target);
  });

  document.addEventListener("click", function (e) {
    var ex = e.target.closest && e.target.closest("[data-example]");
    if (ex) {
      var ta = document.getElementById("composer-input");
      ta.value = ex.dataset.example;
      grow(ta);
      ta.focus();
      return;
    }
    // A question the analyst suggests (a link to #ask in an answer) fills the composer the
    // same way, so a reading is one click and still editable before it is sent.
    var ask = e.target.closest && e.target.closest('#messages a[href="#ask"]');
    if (ask) {
      e.preventDefault();
      var box = document.getElementById("composer-input");
      if (!box) return;
      box.value = ask.textContent;
      grow(box);
      box.focus();
      return;
    }
    var copy = e.target.closest && e.target.closest("[data-copy]");
    if (copy) {
      e.preventDefault();
      navigator.clipboard && navigator.clipboard.writeText(copy.dataset.copy).then(function () {
        copy.textContent = "Copied";
        setTimeout(function () { copy.textContent = "Copy"; }, 1500);
      });
    }
  });

  document.addEventListener("htmx:afterRequest", function (e) {
    var form = e.detail.elt;
    // app.js shows a refusal (4xx/5xx) as a toast and marks it no error for
    // htmx, so the status is checked here: a refused question stays typed.
    if (form.id === "composer" && e.detail.successful && e.detail.xhr.status < 400) {
      var ta = document.getElementById("composer-input");
      ta.value = "";
      grow(ta);
      var last = document.querySelector("#messages .turn:last-child");
      if (last) last.scrollIntoView({ behavior: "smooth", block: "start" });
    }
  });
})();

// Uploads: files chosen or dropped are sent one request each with a
// progress bar; the answer replaces the files panel and the composer chips.
// They go one after another: each answer is the whole panel as the server
// saw it, so an answer to an earlier request arriving last would otherwise
// swap out the card and chip of a file uploaded beside it.
(function () {
  "use strict";

  var queue = [], busy = false;

  function enqueue(file) {
    if (tooLarge(file)) return;
    var row = progressRow(file);
    if (!row) return;
    queue.push({ file: file, row: row });
    next();
  }

  function next() {
    if (busy || queue.length === 0) return;
    busy = true;
    var job = queue.shift();
    upload(job.file, job.row, function () { busy = false; next(); });
  }

  function progressRow(file) {
    if (!uploadURL()) return null;
    var row = document.createElement("div");
    row.className = "upload-row";
    row.innerHTML = '<span class="name"></span> <span class="pct muted">waiting…</span><div class="upload-bar"><span></span></div>';
    row.querySelector(".name").textContent = file.name;
    document.getElementById("upload-progress").appendChild(row);
    return row;
  }

  // A file over the limit is refused here, before the browser sends it all
  // to be refused by the server; the server still checks.
  function tooLarge(file) {
    var f = document.querySelector("#files-panel form.dropzone");
    var max = f ? Number(f.dataset.maxBytes) : 0;
    if (!max || file.size <= max) return false;
    toast(file.name + " was not uploaded: it is " + megabytes(file.size) + ", and a file can be at most " +
      megabytes(max) + ". Split it, or save only the rows and columns you need, and upload that.");
    return true;
  }

  function megabytes(n) { return Math.round(n / 1048576).toLocaleString("en") + " MB"; }

  function toast(text) {
    var t = document.createElement("div");
    t.className = "toast toast-error";
    t.setAttribute("role", "alert");
    t.textContent = text;
    document.getElementById("toasts").appendChild(t);
  }

  function uploadURL() {
    var f = document.querySelector("#files-panel form.dropzone");
    return f && f.dataset.uploadUrl;
  }

  function upload(file, row, done) {
    var url = uploadURL();
    if (!url) { row.remove(); done(); return; }
    row.querySelector(".pct").textContent = "0%";
    var data = new FormData();
    data.append("file", file, file.name);
    var xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("X-CSRF-Token", document.querySelector('meta[name="csrf-token"]').content);
    xhr.setRequestHeader("X-Upload", "1");
    xhr.upload.onprogress = function (e) {
      if (!e.lengthComputable) return;
      var pct = Math.round((e.loaded / e.total) * 100);
      row.querySelector(".upload-bar span").style.width = pct + "%";
      row.querySelector(".pct").textContent = pct < 100 ? pct + "%" : "profiling…";
    };
    xhr.onload = function () {
      row.remove();
      if (xhr.status >= 200 && xhr.status < 300) {
        // The answer's chips are all ticked: a file left out stays out.
        var out = Array.prototype.map.call(document.querySelectorAll('#file-chips input[name="file_id"]:not(:checked)'), function (c) { return c.value; });
        htmx.swap("#files-panel", xhr.responseText, { swapStyle: "outerHTML" });
        out.forEach(function (id) {
          var c = document.querySelector('#file-chips input[name="file_id"][value="' + id + '"]');
          if (c) {
            c.checked = false;
            chipTitle(c);
          }
        });
        // The new panel has an empty progress list: the files still
        // waiting keep their rows.
        var list = document.getElementById("upload-progress");
        queue.forEach(function (job) { if (list) list.appendChild(job.row); });
      } else {
        htmx.swap("#toasts", xhr.responseText, { swapStyle: "beforeend" });
      }
      done();
    };
    xhr.onerror = function () {
      row.remove();
      done();
      toast(file.name + " was not uploaded: the connection failed. Try again.");
    };
    xhr.send(data);
  }

  // A chip's tooltip says what a click does now: leave a ticked file out, take an unticked
  // one in.
  function chipTitle(input) {
    var chip = input.closest(".chip");
    if (chip) chip.title = input.checked ? "Click to leave this file out of the next question" : "Click to include this file in the next question";
  }

  document.addEventListener("change", function (e) {
    if (e.target.matches && e.target.matches('#file-chips input[name="file_id"]')) {
      chipTitle(e.target);
    }
    if (e.target.matches && e.target.matches('#files-panel input[type="file"]')) {
      Array.prototype.forEach.call(e.target.files, enqueue);
      e.target.value = "";
    }
  });

  var depth = 0;
  function zone() { return document.querySelector(".conversation"); }
  document.addEventListener("dragenter", function (e) {
    if (!zone() || !e.dataTransfer || Array.prototype.indexOf.call(e.dataTransfer.types, "Files") < 0) return;
    depth++;
    zone().classList.add("dragging");
  });
  document.addEventListener("dragleave", function () {
    if (!zone()) return;
    depth = Math.max(0, depth - 1);
    if (depth === 0) zone().classList.remove("dragging");
  });
  document.addEventListener("dragover", function (e) {
    if (zone()) e.preventDefault();
  });
  document.addEventListener("drop", function (e) {
    if (!zone()) return;
    e.preventDefault();
    depth = 0;
    zone().classList.remove("dragging");
    Array.prototype.forEach.call(e.dataTransfer.files, enqueue);
  });
})();

// Finished code cells show their first 8 lines; a button shows the rest.
(function () {
  "use strict";
  var lines = 8;

  function clamp(root) {
    (root || document).querySelectorAll(".cell-completed .cell-code:not([data-clamp])").forEach(function (code) {
      code.dataset.clamp = "1";
      var n = code.querySelectorAll(".line").length || (code.textContent.match(/\n/g) || []).length + 1;
      if (n <= lines + 2) return;
      code.classList.add("clamped");
      var btn = document.createElement("button");
      btn.type = "button";
      btn.className = "btn btn-ghost btn-sm expand-code";
      btn.textContent = "Show all " + n + " lines";
      btn.addEventListener("click", function () {
        var open = code.classList.toggle("clamped");
        btn.textContent = open ? "Show all " + n + " lines" : "Show fewer lines";
      });
      code.insertAdjacentElement("afterend", btn);
    });
  }

  document.addEventListener("DOMContentLoaded", function () { clamp(); });
  document.addEventListener("htmx:afterSettle", function (e) { clamp(e.target); });
  document.addEventListener("htmx:sseMessage", function (e) { clamp(e.target); });
})();
