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

  // Close the mobile navigation after choosing a conversation.
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest(".conv-link");
    var toggle = document.getElementById("nav-toggle");
    if (link && toggle) toggle.checked = false;
  });
})();
