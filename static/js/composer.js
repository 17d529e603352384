// The composer: Enter sends and Shift+Enter breaks the line, the box grows
// with its text, example questions fill it, and it clears after a send.
(function () {
  "use strict";

  function grow(ta) {
    ta.style.height = "auto";
    ta.style.height = Math.min(ta.scrollHeight, window.innerHeight * 0.4) + "px";
  }

  document.addEventListener("keydown", function (e) {
    var ta = e.target;
    if (ta.id !== "composer-input" || e.key !== "Enter" || e.shiftKey || e.isComposing) return;
    e.preventDefault();
    if (ta.value.trim() === "") return;
    var send = document.querySelector('#composer [data-testid="send"]');
    if (send) ta.form.requestSubmit(send);
  });

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
    if (form.id === "composer" && e.detail.successful) {
      var ta = document.getElementById("composer-input");
      ta.value = "";
      grow(ta);
      var last = document.querySelector("#messages .turn:last-child");
      if (last) last.scrollIntoView({ behavior: "smooth", block: "start" });
    }
  });
})();
