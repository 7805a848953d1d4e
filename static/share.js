/* Canasta scorer, "Add a phone": a Copy button and the browser's share sheet for the game's
   link. Without this file the link is still there, to long-press.
   Hooks: [data-share] (hidden until this runs, with data-copied: "Link copied"),
   [data-copy], [data-share-sheet] inside it; the link is the first [data-share-url] before it. */
(function () {
  "use strict";
  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    // Plain HTTP on the local network: the old way, through a selected field.
    var field = document.createElement("textarea");
    field.value = text;
    field.setAttribute("readonly", "");
    field.className = "offscreen";
    document.body.appendChild(field);
    field.select();
    var done = document.execCommand && document.execCommand("copy");
    document.body.removeChild(field);
    return done ? Promise.resolve() : Promise.reject();
  }

  function setup(box) {
    var link = box.parentNode.querySelector("[data-share-url]");
    if (!link) return;
    var url = link.href;
    var copyButton = box.querySelector("[data-copy]");
    var shareButton = box.querySelector("[data-share-sheet]");
    box.hidden = false;
    copyButton.addEventListener("click", function () {
      copy(url).then(function () {
        copyButton.textContent = box.getAttribute("data-copied");
      }, function () { /* nothing copied: the link is still there to long-press */ });
    });
    if (navigator.share) {
      shareButton.hidden = false;
      shareButton.addEventListener("click", function () {
        navigator.share({ title: document.title, url: url }).catch(function () {});
      });
    }
  }

  Scorer.ready(function () { Scorer.each(document.querySelectorAll("[data-share]"), setup); });
})();
