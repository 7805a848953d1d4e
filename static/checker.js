/* The opening-meld checker, live: the same rules as scorer/meld.py, counted at each tap.
   Without this file the form still works: the server answers when "Count" is pressed. */
(function () {
  "use strict";
  var form = document.getElementById("meld-form");
  if (!form) return;
  // The rules below are the default game's: in another game (or once another is chosen)
  // the server answers each "Count".
  function live() {
    var family = form.querySelector("select[name=family]");
    var key = family ? family.value : form.getAttribute("data-family");
    return key === form.getAttribute("data-live-family");
  }

  var VALUES = { joker: 50, two: 20, A: 20, K: 10, Q: 10, J: 10, "10": 10, "9": 10, "8": 10,
                 "7": 5, "6": 5, "5": 5, "4": 5, "3": 5, "red-3": 0 };
  var num = Scorer.number;
  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_m, name) { return values[name]; });
  }
  function count(input) {
    var text = input.value.trim();
    if (text === "") return 0;
    return /^\d+$/.test(text) ? parseInt(text, 10) : NaN;
  }

  // The reasons a meld is refused, in the order scorer/meld.py lists them.
  function problems(m, opts) {
    var wild = m.jokers + m.twos;
    if (m.rank === "red-3") return ["red-three"];
    if (m.rank === "3") {
      if (!opts.goingOut) return ["black-three-not-going-out"];
      var found = [];
      if (m.naturals !== 3 && m.naturals !== 4) found.push("black-three-count");
      if (wild) found.push("black-three-wild");
      return found;
    }
    var codes = [];
    if (m.naturals + wild < 3) codes.push("too-few-cards");
    if (m.naturals < 2) codes.push("too-few-naturals");
    if (wild > 3) codes.push("too-many-wild");
    else if (opts.wildRule && wild > m.naturals) codes.push("wild-outnumber");
    return codes;
  }

  function update() {
    if (!live()) return;
    var minimum = count(form.elements.minimum);
    if (isNaN(minimum)) return; // the server will say what is wrong when the form is sent
    var opts = { wildRule: form.elements.wild_rule.checked, goingOut: form.elements.going_out.checked,
                 top: form.elements.discard_top.value };
    var points = 0, refused = false, topMeld = null;
    Scorer.each(form.querySelectorAll("[data-row]"), function (row) {
      var i = row.getAttribute("data-row");
      var m = { rank: form.elements["rank-" + i].value, naturals: count(form.elements["naturals-" + i]),
                jokers: count(form.elements["jokers-" + i]), twos: count(form.elements["twos-" + i]) };
      var out = row.querySelector("[data-points]"), errors = row.querySelector("[data-errors]");
      errors.textContent = "";
      row.classList.remove("has-error");
      if (!(m.naturals + m.jokers + m.twos) || isNaN(m.naturals + m.jokers + m.twos)) {
        out.textContent = "";
        return; // an empty row is left out; an unreadable one waits for the server
      }
      var codes = problems(m, opts);
      if (opts.top && m.rank === opts.top && topMeld === null) {
        topMeld = m;
        if (m.naturals < 3 && opts.top !== "3" && opts.top !== "red-3") codes.push("pile-needs-pair");
      }
      var value = m.naturals * VALUES[m.rank] + m.jokers * VALUES.joker + m.twos * VALUES.two;
      out.textContent = num(value);
      var legal = codes.every(function (c) { return c.indexOf("pile-") === 0; });
      if (legal) points += value;
      if (codes.length) { refused = true; row.classList.add("has-error"); }
      codes.forEach(function (code) {
        var p = document.createElement("p");
        p.className = "field-error";
        p.textContent = form.getAttribute("data-reason-" + code);
        errors.appendChild(p);
      });
    });
    var topError = form.querySelector("[data-top-error]");
    var topCode = !opts.top ? null : (opts.top === "3" || opts.top === "red-3") ? "pile-three-on-top"
      : topMeld === null ? "pile-no-meld" : null;
    topError.hidden = !topCode;
    topError.textContent = topCode ? form.getAttribute("data-reason-" + topCode) : "";
    var verdict = document.getElementById("verdict");
    var enough = points >= minimum;
    verdict.textContent = enough
      ? fill(form.getAttribute("data-verdict-open"), { points: num(points) })
      : fill(form.getAttribute("data-verdict-short"),
             { points: num(points), minimum: num(minimum), short: num(minimum - points) });
    verdict.classList.toggle("enough", enough);
    var note = form.querySelector("[data-refused-note]");
    if (note) note.hidden = !refused && !topCode;
  }

  var chosen = form.querySelector("select[name=family]");
  if (chosen) {
    // Another game: the page again, at that game's minimum and with its ranks.
    chosen.addEventListener("change", function () {
      window.location.search = "?family=" + encodeURIComponent(chosen.value);
    });
  }
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  update();
})();
