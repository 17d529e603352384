// The gallery's lightbox: a click on a chart shows it full size, with
// arrows (and the arrow keys) to the neighbouring charts, Download, Show code
// and Go to message. Without this file the thumbnail opens the image itself.
(function () {
  "use strict";
  var box, items, index;

  function build() {
    box = document.createElement("div");
    box.className = "lightbox";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-modal", "true");
    box.innerHTML =
      '<button type="button" class="lb-close btn btn-ghost" aria-label="Close">✕</button>' +
      '<button type="button" class="lb-prev btn btn-ghost" aria-label="Previous chart">‹</button>' +
      '<figure><img alt=""><figcaption><span class="lb-name"></span>' +
      '<a class="btn btn-sm lb-download" download>Download</a>' +
      '<a class="btn btn-sm lb-code">Show code</a>' +
      '<a class="btn btn-sm lb-message">Go to message</a></figcaption></figure>' +
      '<button type="button" class="lb-next btn btn-ghost" aria-label="Next chart">›</button>';
    document.body.appendChild(box);
    box.addEventListener("click", function (e) {
      if (e.target === box || e.target.closest(".lb-close")) close();
      else if (e.target.closest(".lb-prev")) show(index - 1);
      else if (e.target.closest(".lb-next")) show(index + 1);
    });
  }

  function show(i) {
    index = (i + items.length) % items.length;
    var a = items[index].dataset;
    box.querySelector("img").src = a.full;
    box.querySelector("img").alt = a.name;
    box.querySelector(".lb-name").textContent = a.name + " (" + (index + 1) + " of " + items.length + ")";
    box.querySelector(".lb-download").href = a.download;
    box.querySelector(".lb-code").href = a.code;
    box.querySelector(".lb-message").href = a.message;
  }

  function open(i) {
    if (!box) build();
    box.classList.add("open");
    show(i);
    box.querySelector(".lb-close").focus();
  }

  function close() {
    box.classList.remove("open");
    if (items[index]) items[index].focus();
  }

  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest(".gallery-thumb[data-full]");
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    items = Array.prototype.slice.call(document.querySelectorAll(".gallery-thumb[data-full]"));
    open(items.indexOf(a));
  });

  document.addEventListener("keydown", function (e) {
    if (!box || !box.classList.contains("open")) return;
    if (e.key === "Escape") close();
    else if (e.key === "ArrowLeft") show(index - 1);
    else if (e.key === "ArrowRight") show(index + 1);
  });
})();
