/* Canasta scorer: small enhancements; every page works without them and the server
   checks and scores everything again. */
(function () {
  "use strict";
  var each = function (list, fn) { Array.prototype.forEach.call(list, fn); };

  function toInt(text) {
    var v = String(text || "").trim().replace("\u2212", "-");
    return /^[+-]?\d{1,7}$/.test(v) ? parseInt(v, 10) : null;
  }

  function signed(n) {
    return n > 0 ? "+" + n : n < 0 ? "\u2212" + -n : "0";
  }

  // Steppers: - and + around the small counts.
  function addSteppers() {
    each(document.querySelectorAll("input[data-stepper]"), function (input) {
      var box = document.createElement("div");
      box.className = "stepper";
      input.parentNode.insertBefore(box, input);
      [["\u2212", input.dataset.less, -1], ["+", input.dataset.more, 1]].forEach(function (b, i) {
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = b[0];
        button.setAttribute("aria-label", b[1] + ": " + input.labels[0].textContent);
        button.addEventListener("click", function () {
          input.value = String(Math.max(0, (toInt(input.value) || 0) + b[2]));
          input.dispatchEvent(new Event("input", { bubbles: true }));
        });
        if (i === 0) box.appendChild(button);
        else { box.appendChild(input); box.appendChild(button); }
      });
    });
  }

  // The hand form: a live preview of each side's hand score (rule book, section 1).
  function setupPreview(form) {
    var d = form.dataset;
    var values = JSON.parse(d.values);
    var sets = JSON.parse(d.redSets);

    function counted(column, part) {
      var points = null;
      each(column.querySelectorAll('[data-count="' + part + '"]'), function (input) {
        if (input.value.trim() === "") return;
        points = (points || 0) + (toInt(input.value) || 0) * values[input.dataset.group];
      });
      return points;
    }

    function num(column, part) {
      return toInt(column.querySelector('[data-part="' + part + '"]').value) || 0;
    }

    function badge(column, part, points) {
      var summary = column.querySelector('[data-counter="' + part + '"] summary');
      var span = summary.querySelector(".counted");
      if (!span) {
        span = document.createElement("span");
        span.className = "counted";
        summary.appendChild(span);
      }
      span.textContent = points === null ? "" : "= " + points;
    }

    function update() {
      var out = form.querySelector('[name="went_out"]:checked');
      var concealed = form.querySelector('[name="concealed"]').checked;
      each(form.querySelectorAll("[data-column]"), function (column) {
        var meldCards = counted(column, "meld");
        var handCards = counted(column, "hand");
        var meld = meldCards === null ? num(column, "meld") : meldCards;
        var hand = handCards === null ? num(column, "hand") : handCards;
        var chip = column.querySelector('input[type="radio"]:checked');
        var reds = chip ? toInt(chip.value) || 0 : 0;
        var red = reds in sets ? sets[reds] : reds * toInt(d.red);
        var score = meld + num(column, "natural") * toInt(d.natural) +
          num(column, "mixed") * toInt(d.mixed) + (meld === 0 ? -red : red) - hand;
        if (out && out.value === column.dataset.column) {
          score += toInt(concealed ? d.concealed : d.out);
        }
        var output = column.querySelector("output");
        output.textContent = signed(score);
        output.parentNode.hidden = false;
        badge(column, "meld", meldCards);
        badge(column, "hand", handCards);
      });
    }

    form.addEventListener("input", update);
    form.addEventListener("change", update);
    update();
  }

  // Enter in a number box goes to the next visible box instead of saving half a hand.
  function setupEnter(form) {
    var boxes = Array.prototype.slice.call(form.querySelectorAll('[inputmode="numeric"]'));
    boxes.forEach(function (box, i) {
      box.setAttribute("enterkeyhint", i === boxes.length - 1 ? "done" : "next");
      box.addEventListener("keydown", function (event) {
        if (event.key !== "Enter") return;
        var next = boxes.slice(i + 1).find(function (b) { return b.offsetParent !== null; });
        if (next) { event.preventDefault(); next.focus(); }
      });
    });
  }

  // The new-game form: another variant brings its own house-rule values, unless changed.
  function setupVariants(form) {
    var defaults = JSON.parse(form.dataset.ruleDefaults);
    var select = form.elements.profile;
    var shown = form.elements.rules_for;
    var text = function (v) { return v === null || v === undefined ? "" : String(v); };

    function swap(name, before, after) {
      var input = form.elements[name];
      if (input && input.value.trim() === text(before)) input.value = text(after);
    }

    select.addEventListener("change", function () {
      var before = defaults[shown.value];
      var after = defaults[select.value];
      if (!before || !after) return;
      Object.keys(after).forEach(function (key) {
        if (key !== "minimums") swap(key, before[key], after[key]);
      });
      after.minimums.forEach(function (row, i) {
        var old = before.minimums[i];
        swap("minimums-" + i + "-start", old[0], row[0]);
        swap("minimums-" + i + "-minimum", old[1], row[1]);
      });
      shown.value = select.value;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    addSteppers();
    var hand = document.querySelector("form[data-preview]");
    if (hand) { setupPreview(hand); setupEnter(hand); }
    var game = document.querySelector("form[data-rule-defaults]");
    if (game) setupVariants(game);
  });
})();
