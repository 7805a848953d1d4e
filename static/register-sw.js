/* Canasta scorer: installs the service worker where browsers allow one (HTTPS, localhost),
   and says so when a page is the copy kept for offline use.

   Hooks: [data-offline-text] on any element (the <body>, say): the sentence shown at the top
   of a page that the service worker served from its copy, marked by <html data-offline>. */
(function () {
  "use strict";
  function register() {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
      /* no offline copy then: the app works as before */
    });
  }

  // After the page has loaded, so the first visit downloads the page before the cache.
  if (window.isSecureContext && "serviceWorker" in navigator) {
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register);
  }

  function markOffline() {
    if (!document.documentElement.hasAttribute("data-offline")) return;
    var source = document.querySelector("[data-offline-text]");
    if (!source || document.querySelector("[data-offline-banner]")) return;
    var banner = Scorer.banner("offline", "status", "data-offline-banner");
    banner.textContent = source.getAttribute("data-offline-text");
    var main = document.querySelector("main") || document.body;
    main.insertBefore(banner, main.firstChild);
  }

  Scorer.ready(markOffline);
})();
