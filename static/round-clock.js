// A timed round's clock (templates/nights/_clock.html): the server's reading is the page, and
// without JavaScript it stays so (the wall reloads itself). Here the clock counts down from
// the seconds the server gave, in this browser's own time (a TV's clock may be minutes off:
// only the seconds count, never its time of day), and at the warning and at the call it
// writes the new phase in with the words the server gave, then asks for the page as it stands
// (live.js, "live:look"): the server changes phase no later than this count, which rounds up.
(function () {
  "use strict";
  var PHASES = ["playing", "warning", "time"];
  // A look a moment after the change, and another in case the first came back unchanged
  // (a server a little behind, a network blip): no poll runs while push is connected.
  var LOOKS = [250, 2500];

  function startOf(clock) {
    if (!clock.scorerClock) {
      var now = Date.now();
      var left = parseInt(clock.getAttribute("data-seconds-left"), 10);
      var toWarning = parseInt(clock.getAttribute("data-seconds-to-warning"), 10) || 0;
      clock.scorerClock = {
        ends: now + left * 1000,
        warns: toWarning > 0 ? now + toWarning * 1000 : null,
      };
    }
    return clock.scorerClock;
  }

  function shownPhase(clock) {
    for (var k = PHASES.length - 1; k >= 0; k--) {
      if (clock.classList.contains("phase-" + PHASES[k])) return PHASES[k];
    }
    return "playing";
  }

  function phaseAt(clock, times, now) {
    if (now >= times.ends) return "time";
    if (times.warns !== null && now >= times.warns) return "warning";
    return shownPhase(clock);  // never back: the server said so
  }

  function strong(text) {
    var element = document.createElement("strong");
    element.textContent = text;
    return element;
  }

  function show(clock, phase) {
    each(PHASES, function (name) { clock.classList.remove("phase-" + name); });
    clock.classList.add("phase-" + phase);
    var news = clock.querySelector("[data-clock-news]");
    if (phase === "time") {
      var hint = document.createElement("span");
      hint.className = "hint";
      hint.textContent = clock.getAttribute("data-time-called-hint");
      clock.replaceChildren(strong(clock.getAttribute("data-time-called")), " ", hint);
      if (news) clock.append(news);
      clock.removeAttribute("data-seconds-left");
    } else if (phase === "warning") {
      var words = clock.querySelector(".hint");
      if (words && !words.querySelector("strong")) {
        words.append(" · ", strong(clock.getAttribute("data-last-minutes")));
      }
    }
    // A screen reader hears the new phase once (the timer itself stays silent).
    if (news) {
      news.textContent = phase === "time"
        ? clock.getAttribute("data-time-called") + ". " + clock.getAttribute("data-time-called-hint")
        : clock.getAttribute("data-last-minutes");
    }
    each(LOOKS, function (delay) {
      setTimeout(function () { document.dispatchEvent(new CustomEvent("live:look")); }, delay);
    });
  }

  function each(list, action) { Array.prototype.forEach.call(list, action); }

  function tick() {
    var now = Date.now();
    each(document.querySelectorAll(".round-clock[data-seconds-left]"), function (clock) {
      var times = startOf(clock);
      var phase = phaseAt(clock, times, now);
      if (phase !== shownPhase(clock)) show(clock, phase);
      var shown = clock.querySelector(".clock-left");
      if (phase === "time" || !shown) return;
      var left = Math.max(0, Math.ceil((times.ends - now) / 1000));
      var seconds = String(left % 60);
      shown.textContent = Math.floor(left / 60) + ":" + (seconds.length < 2 ? "0" + seconds : seconds);
    });
  }

  // Four times a second: the call shows within a quarter second of its moment.
  tick();
  setInterval(tick, 250);
})();
