/* Hand form: steppers, live preview, Enter goes on. Works without it; the server checks all. */
(function () {
  "use strict";
  var each = Scorer.each;
  var toInt = Scorer.toInt;
  var grouped = Scorer.number;

  function signed(n) {
    return n > 0 ? "+" + grouped(n) : n < 0 ? "\u2212" + grouped(-n) : "0";
  }

  // Steppers: - and + around the small counts (of `root`, the form or a new meld row).
  function addSteppers(root, words) {
    each(root.querySelectorAll(".count input"), function (input) {
      var box = document.createElement("div");
      box.className = "stepper";
      input.parentNode.insertBefore(box, input);
      [["\u2212", words.less, -1], ["+", words.more, 1]].forEach(function (b, i) {
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = b[0];
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

  // Each side's score part by part (rule book §1): a bonus typed into the melds shows twice.
  function setupPreview(form) {
    var d = form.dataset;
    var values = JSON.parse(d.values);
    var sets = JSON.parse(d.redSets);
    var words = JSON.parse(d.parts);  // [[part, label]], in the rule book's order

    var rankGroups = JSON.parse(d.rankGroups);

    // The melds typed rank by rank (rows with cards): null when none.
    function byRank(column) {
      var found = null;
      each(column.querySelectorAll("[data-meld-row]"), function (row) {
        var n = function (name) {
          var input = row.querySelector('[name$="-' + name + '"]');
          return toInt(input.value) || 0;
        };
        var meld = { rank: row.querySelector("select").value, naturals: n("naturals"),
                     jokers: n("jokers"), twos: n("twos") };
        var wild = meld.jokers + meld.twos;
        if (meld.naturals + wild <= 0) return;
        found = found || { points: 0, natural: 0, mixed: 0 };
        found.points += meld.naturals * (values[rankGroups[meld.rank]] || 0) +
          meld.jokers * values.jokers + meld.twos * values.twenty;
        // A canasta is seven cards or more: natural without a wild card (scorer/meld.py).
        if (meld.naturals + wild >= 7) {
          if (wild) found.mixed += 1; else found.natural += 1;
        }
      });
      return found;
    }

    // The adjustment as signed points: a sign typed in the box wins over the chips.
    function adjustment(column) {
      var input = box(column, "adjustment");
      var amount = toInt(input.value);
      if (!amount) return 0;
      if (/^\s*[+\-\u2212]/.test(input.value)) return amount;
      var chip = column.querySelector('.adjust-sign input[type="radio"]:checked');
      return chip && chip.value === "+" ? Math.abs(amount) : -Math.abs(amount);
    }

    function counted(column, part) {
      var points = null;
      each(column.querySelectorAll('.count [name*="-' + part + '_"]'), function (input) {
        if (input.value.trim() === "") return;
        var group = input.name.split("_").pop();
        points = (points || 0) + (toInt(input.value) || 0) * values[group];
      });
      return points;
    }

    function box(column, name) {
      return column.querySelector('[name$="-' + name + '"]');
    }

    function num(column, name) {
      return toInt(box(column, name).value) || 0;
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

    // Counted cards decide (as on the server): the points box shows their total, locked.
    function follow(column, part, points) {
      lock(box(column, part + "_points"), points, d.counted);
    }

    // A box the cards decide: it shows their number, locked, with a note saying why.
    function lock(input, points, why) {
      // A count's box sits in its stepper: the note goes under the stepper, whose buttons
      // rest while the box is locked.
      var stepper = input.parentNode.classList.contains("stepper") ? input.parentNode : null;
      var note = (stepper || input).parentNode.querySelector(".from-counter");
      if (stepper) {
        each(stepper.querySelectorAll("button"), function (b) { b.disabled = points !== null; });
      }
      if (points !== null) {
        if (!input.readOnly) {
          input.dataset.typed = input.value;
          input.readOnly = true;
          note = document.createElement("p");
          note.className = "from-counter";
          note.id = input.id + "-counted";
          note.textContent = why;
          (stepper || input).insertAdjacentElement("afterend", note);
          input.setAttribute("aria-describedby",
            ((input.getAttribute("aria-describedby") || "") + " " + note.id).trim());
        }
        input.value = String(points);
        if (note) note.textContent = why;
      } else if (input.readOnly) {
        input.readOnly = false;
        input.value = input.dataset.typed || "";
        if (note) note.remove();
        var rest = (input.getAttribute("aria-describedby") || "").replace(input.id + "-counted", "").trim();
        if (rest) input.setAttribute("aria-describedby", rest);
        else input.removeAttribute("aria-describedby");
      }
    }

    function parts(column, out, concealed) {
      var melds = byRank(column);
      // Melds rank by rank decide over counted cards, as on the server.
      var meldCards = melds ? melds.points : counted(column, "meld");
      var handCards = counted(column, "hand");
      lock(box(column, "meld_points"), meldCards, melds ? d.byRank : d.counted);
      lock(box(column, "natural_canastas"), melds ? melds.natural : null, d.fromMelds);
      lock(box(column, "mixed_canastas"), melds ? melds.mixed : null, d.fromMelds);
      follow(column, "hand", handCards);
      badge(column, "meld", melds ? null : counted(column, "meld"));
      badge(column, "melds", melds ? melds.points : null);
      badge(column, "hand", handCards);
      var meld = meldCards === null ? num(column, "meld_points") : meldCards;
      var chip = column.querySelector('.red-threes input[type="radio"]:checked');
      var reds = chip ? toInt(chip.value) || 0 : 0;
      var red = reds in sets ? sets[reds] : reds * toInt(d.red);
      var wentOut = out && out.value === column.dataset.column;
      var natural = num(column, "natural_canastas");
      var mixed = num(column, "mixed_canastas");
      // Red threes count against a side that melded nothing or, as a house rule, against
      // a side without a canasta (scorer/core/hands.py).
      var against = d.redAgainst === "no_canasta" ? natural + mixed === 0 : meld === 0;
      return {
        cards: meld,
        canastas: natural * toInt(d.natural) + mixed * toInt(d.mixed),
        red_threes: against ? -red : red,
        going_out: wentOut ? toInt(concealed ? d.concealed : d.out) : 0,
        hand: -(handCards === null ? num(column, "hand_points") : handCards),
        adjustment: adjustment(column)
      };
    }

    function show(column, p) {
      var list = column.querySelector("[data-parts-for]");
      list.textContent = "";
      var score = 0;
      words.forEach(function (pair) {
        var key = pair[0];
        score += p[key];
        if (p[key] === 0 && key !== "cards") return;
        var item = document.createElement("li");
        var label = document.createElement("span");
        var value = document.createElement("span");
        label.textContent = pair[1];
        value.textContent = signed(p[key]);
        item.appendChild(label);
        item.appendChild(value);
        list.appendChild(item);
      });
      var output = column.querySelector("output");
      output.textContent = signed(score);
      output.parentNode.hidden = false;
    }

    // The rule book's hint (never a refusal): a side that did not go out still holds cards.
    function hint(column, out, p) {
      var note = column.querySelector("[data-hint-for]");
      if (!note) return;
      var empty = !!out && out.value !== column.dataset.column && p.hand === 0;
      note.textContent = empty ? d.hintEmpty : "";
      note.hidden = !empty;
    }

    function update() {
      var out = form.querySelector('[name="went_out"]:checked');
      var concealed = form.querySelector('[name="concealed"]');
      var nobody = !!out && !/^\d+$/.test(out.value);
      concealed.disabled = nobody;
      if (nobody) concealed.checked = false;
      each(form.querySelectorAll("[data-column]"), function (column) {
        var p = parts(column, out, concealed.checked);
        show(column, p);
        hint(column, out, p);
      });
    }

    form.addEventListener("input", update);
    form.addEventListener("change", update);
    update();
  }

  // "Add a meld" without a round trip: a copy of the first row, empty, with the next index.
  function setupAddMeld(form, blank) {
    var d = form.dataset;
    each(form.querySelectorAll("[data-add-meld]"), function (button) {
      button.addEventListener("click", function (event) {
        var list = button.parentNode.querySelector("[data-meld-rows]");
        var count = list.querySelectorAll("[data-meld-row]").length;
        event.preventDefault();
        var row = blank.cloneNode(true);
        var column = button.closest("[data-column]").dataset.column;
        var rename = function (text) {
          return text.replace(/sides-\d+-melds-\d+-/g, "sides-" + column + "-melds-" + count + "-");
        };
        each(row.querySelectorAll("[name], [id], [for], [aria-describedby]"), function (el) {
          ["name", "id", "for", "aria-describedby"].forEach(function (attr) {
            if (el.hasAttribute(attr)) el.setAttribute(attr, rename(el.getAttribute(attr)));
          });
        });
        row.querySelector("legend").textContent = d.meldLegend.replace("{number}", count + 1);
        list.appendChild(row);
        addSteppers(row, d);
        if (count + 1 >= toInt(d.meldsMax)) button.hidden = true;
        row.querySelector("select").focus();
      });
    });
  }

  // An empty copy of a meld row, taken before steppers are added.
  function blankMeldRow(form) {
    var first = form.querySelector("[data-meld-row]");
    if (!first) return null;
    var row = first.cloneNode(true);
    each(row.querySelectorAll("input"), function (input) {
      input.value = "";
      input.removeAttribute("value");
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
    });
    each(row.querySelectorAll(".field-error"), function (p) { p.remove(); });
    each(row.querySelectorAll(".has-error"), function (el) { el.classList.remove("has-error"); });
    each(row.querySelectorAll("option"), function (option) {
      option.selected = option.defaultSelected = option.value === "K";
    });
    return row;
  }

  function typable(box) {
    return box.getClientRects().length > 0 && !box.closest("details:not([open])") &&
      !box.readOnly && !box.disabled;
  }

  // Enter (Android's "Next") goes to the next box one can type into, never a closed counter.
  function setupEnter(form) {
    var boxes = Array.prototype.slice.call(form.querySelectorAll('[inputmode="numeric"]'));
    function nextOf(i) { return boxes.slice(i + 1).find(typable); }
    boxes.forEach(function (box, i) {
      box.setAttribute("enterkeyhint", "next");
      box.addEventListener("focus", function () {
        box.setAttribute("enterkeyhint", nextOf(i) ? "next" : "done");
      });
      box.addEventListener("keydown", function (event) {
        if (event.key !== "Enter" || event.isComposing) return;
        var next = nextOf(i);
        if (next) { event.preventDefault(); next.focus(); }
      });
    });
  }

  // Tapping a side's red threes (its last box) moves on to the next side's empty melds;
  // arrow keys stay among the chips.
  function setupNextSide(form) {
    var columns = form.querySelectorAll("[data-column]");
    each(columns, function (column, i) {
      var pointer = false;
      column.addEventListener("pointerdown", function () { pointer = true; });
      column.addEventListener("keydown", function () { pointer = false; });
      column.addEventListener("change", function (event) {
        var next = columns[i + 1] && columns[i + 1].querySelector('[name$="-meld_points"]');
        var filled = Array.prototype.some.call(column.querySelectorAll('[name*="-meld_"]'),
          function (box) { return box.value.trim() !== ""; });
        if (event.target.type === "radio" && pointer && filled && next && next.value === "") {
          next.focus();
        }
      });
    });
  }

  Scorer.ready(function () {
    var hand = document.querySelector("form[data-preview]");
    if (hand) {
      var blank = blankMeldRow(hand);
      addSteppers(hand, hand.dataset);
      if (blank) setupAddMeld(hand, blank);
      setupPreview(hand); setupEnter(hand); setupNextSide(hand);
    }
  });
})();
