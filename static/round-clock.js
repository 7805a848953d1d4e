// A timed round's clock, ticking each second between the server's readings. The page shows
// the server's time left without JavaScript; this only counts it down.
(function () {
  "use strict";
  function tick() {
    document.querySelectorAll(".round-clock[data-ends-at] .clock-left").forEach(function (el) {
      var ends = Date.parse(el.parentNode.getAttribute("data-ends-at"));
      if (isNaN(ends)) return;
      var left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      var seconds = String(left % 60);
      el.textContent = Math.floor(left / 60) + ":" + (seconds.length < 2 ? "0" + seconds : seconds);
      // Time called between two readings: shown in the time's colour until the next one.
      if (left === 0) el.parentNode.classList.add("phase-time");
    });
  }
  setInterval(tick, 1000);
})();
