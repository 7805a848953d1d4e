/* Canasta scorer, hand form: steppers, live preview, Enter goes on. The form works
   without this file; the server checks and scores everything again. */
(function () {
  "use strict";
  var each = function (list, fn) { Array.prototype.forEach.call(list, fn); };

  function toInt(text) {
    var v = String(text || "").trim().replace("\u2212", "-");
    return /^[+-]?\d{1,7}$/.test(v) ? parseInt(v, 10) : null;
  }

  // Digits grouped as the server groups them: 2,300 in English, 2 300 in French.
  var grouped = new Intl.NumberFormat(document.documentElement.lang || "en").format;

  function signed(n) {
    return n > 0 ? "+" + grouped(n) : n < 0 ? "\u2212" + grouped(-n) : "0";
  }

  // Steppers: - and + around the small counts.
  function addSteppers(form) {
    var words = form.dataset;
    each(form.querySelectorAll(".count input"), function (input) {
      var box = document.createElement("div");
      box.className = "stepper";
      input.parentNode.insertBefore(box, input);
      [["\u2212", words.less, -1], ["+", words.more, 1]].forEach(function (b, i) {
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = b[0];
        // The sentence comes translated from the page: French puts a space before the colon.
        button.setAttribute("aria-label", b[1].replace("{label}", input.labels[0].textContent));
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
      each(column.querySelectorAll('.count [name*="-' + part + '_"]'), function (input) {
        if (input.value.trim() === "") return;
        var group = input.name.split("_").pop();
        points = (points || 0) + (toInt(input.value) || 0) * values[group];
      });
      return points;
    }

    function num(column, name) {
      return toInt(column.querySelector('[name$="-' + name + '"]').value) || 0;
    }

    function badge(column, part, points) {
      var summary = column.querySelector('[data-counter="' + part + '"] summary');
      var span = summary.querySelector(".counted");
      if (!span) {
        span = document.createElement("span");
        span.className = "counted";
        summary.appendChild(span);
      }
      span.textContent = points === null ? "" : "= " + grouped(points);
    }

    function update() {
      var out = form.querySelector('[name="went_out"]:checked');
      var concealed = form.querySelector('[name="concealed"]').checked;
      each(form.querySelectorAll("[data-column]"), function (column) {
        var meldCards = counted(column, "meld");
        var handCards = counted(column, "hand");
        var meld = meldCards === null ? num(column, "meld_points") : meldCards;
        var hand = handCards === null ? num(column, "hand_points") : handCards;
        var chip = column.querySelector('input[type="radio"]:checked');
        var reds = chip ? toInt(chip.value) || 0 : 0;
        var red = reds in sets ? sets[reds] : reds * toInt(d.red);
        var score = meld + num(column, "natural_canastas") * toInt(d.natural) +
          num(column, "mixed_canastas") * toInt(d.mixed) + (meld === 0 ? -red : red) - hand;
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

  // A side with its melds typed is done once its red threes (its last box) are chosen:
  // the cursor moves on to the next side's meld points, when still empty.
  function setupNextSide(form) {
    var columns = form.querySelectorAll("[data-column]");
    each(columns, function (column, i) {
      column.addEventListener("change", function (event) {
        var next = columns[i + 1] && columns[i + 1].querySelector('[name$="-meld_points"]');
        var filled = Array.prototype.some.call(column.querySelectorAll('[name*="-meld_"]'),
          function (box) { return box.value.trim() !== ""; });
        if (event.target.type === "radio" && filled && next && next.value === "") next.focus();
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var hand = document.querySelector("form[data-preview]");
    if (hand) { addSteppers(hand); setupPreview(hand); setupEnter(hand); setupNextSide(hand); }
  });
})();
