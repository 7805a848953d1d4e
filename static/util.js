/* Canasta scorer, the small helpers every script shares: one global, `Scorer`.
   Loaded first by base.html (every script is deferred, so they run in page order). */
var Scorer = (function () {
  "use strict";

  // forEach over a NodeList, an HTMLCollection or form.elements alike.
  function each(list, fn) { Array.prototype.forEach.call(list, fn); }

  // A whole number as typed in a box ("12", "-5", "\u22125", " +30 "), else null.
  function toInt(text) {
    var v = String(text || "").trim().replace("\u2212", "-");
    return /^[+-]?\d{1,7}$/.test(v) ? parseInt(v, 10) : null;
  }

  // Grouped as the server groups them (Babel): 2,300 / 2 300; plain digits below 1 000.
  var number = new Intl.NumberFormat(document.documentElement.lang || "en",
    { maximumFractionDigits: 0 }).format;

  // Runs `start` once the page is parsed (at once when it already is).
  function ready(start) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
  }

  // A banner the page's own sentence goes into: class "banner <kind>", its ARIA role, and
  // the data-* hook its script finds it by again. The caller puts it in place.
  function banner(kind, role, hook) {
    var element = document.createElement("div");
    element.className = "banner " + kind;
    element.setAttribute("role", role);
    element.setAttribute(hook, "");
    return element;
  }

  return { each: each, toInt: toInt, number: number, ready: ready, banner: banner };
})();
