/* Hand form: steppers, the server's verdict before Save, Enter goes on. Works without it. */
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
      // A meld row's four boxes share one line: its counts are typed, not stepped.
      if (input.closest("[data-meld-row], [data-sequence-row]")) return;
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

  // The preview is the server's own verdict: the form as Save would post it goes to the
  // dry run (data-check), which checks it exactly as a save does and stores nothing. No rule
  // of the game is written here: the figures, the refusal and the boxes the cards decide
  // all come from the server. Without a network it says it cannot check.
  function setupPreview(form) {
    var d = form.dataset;
    var verdict = form.querySelector("[data-verdict]");
    var partsBox = form.querySelector("[data-parts]");
    var partsBody = form.querySelector("[data-parts-body]");
    var asked = 0;
    var timer = null;
    var touched = false;  // a fresh form is not judged before anything is typed

    function box(column, name) {
      return column.querySelector('[name$="-' + name + '"]');
    }

    // A box the cards decide: it shows their number, locked, with a note saying why.
    function lock(input, points, why) {
      if (!input) return;
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

    function decide(decided) {
      each(form.querySelectorAll("[data-column]"), function (column, i) {
        var boxes = decided && decided[i];
        if (!boxes) return;
        var why = boxes.by === "melds" ? d.byRank : d.counted;
        Object.keys(boxes).forEach(function (name) {
          if (name === "by") return;
          var from = name.indexOf("canastas") !== -1 ? d.fromMelds : why;  // natural_canastas, canastas_sevens
          lock(box(column, name), boxes[name], from);
        });
      });
    }

    function say(kind, text) {
      verdict.className = "verdict " + kind;
      verdict.textContent = text;
      verdict.hidden = !text;
    }

    function figures(sides) {
      each(form.querySelectorAll("output[data-preview-for]"), function (output, i) {
        output.textContent = sides ? signed(sides[i].total) : "";
      });
      partsBody.textContent = "";
      partsBox.hidden = !sides;
      if (!sides) return;
      var rows = [];  // the parts any side has, in the server's order
      sides.forEach(function (side) {
        side.parts.forEach(function (part) {
          if (!rows.some(function (r) { return r[0] === part[0]; })) rows.push(part);
        });
      });
      rows.forEach(function (row) {
        var tr = document.createElement("tr");
        var th = document.createElement("th");
        th.scope = "row";
        th.textContent = row[1];
        tr.appendChild(th);
        sides.forEach(function (side) {
          var td = document.createElement("td");
          var found = side.parts.filter(function (p) { return p[0] === row[0]; })[0];
          td.textContent = found ? signed(found[2]) : "";
          tr.appendChild(td);
        });
        tr.dataset.part = row[0];
        partsBody.appendChild(tr);
      });
    }

    // The server's hint for a side that did not go out and typed nothing in hand.
    function hints(sides) {
      var names = form.querySelectorAll(".side-head .side-name");
      return (sides || []).map(function (side, i) {
        return side.empty_hand ? names[i].textContent + ": " + d.hintEmpty + "." : "";
      }).filter(Boolean);
    }

    function answer(seq, reply) {
      if (seq !== asked) return;  // a later check is on its way
      decide(reply.decided);
      figures(reply.sides || null);
      if (!touched) say("", "");
      else if (reply.verdict === "ok") say("ok", [d.checkOk].concat(hints(reply.sides)).join(" "));
      else say(reply.verdict, reply.message);
      form.querySelectorAll("[data-verdict-field]").forEach(function (el) {
        el.removeAttribute("data-verdict-field");
      });
      var named = reply.field && document.getElementById(reply.field);
      if (named && touched && reply.verdict !== "ok") named.setAttribute("data-verdict-field", "");
      settled(seq);
    }

    // The figures are up to date once the last check asked is answered and none waits.
    function settled(seq) {
      form.dataset.checked = String(seq);
      if (timer === null) form.removeAttribute("data-checking");
    }

    function check() {
      timer = null;
      var seq = ++asked;
      var body = new URLSearchParams();
      new FormData(form).forEach(function (value, name) { body.append(name, String(value)); });
      fetch(d.check, { method: "POST", body: body, credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) throw new Error(String(response.status));
          return response.json();
        })
        .then(function (reply) { answer(seq, reply); }, function () {
          if (seq !== asked) return;
          figures(null);
          say("unknown", d.checkOffline);
          settled(seq);
        });
    }

    function soon() {
      clearTimeout(timer);
      form.setAttribute("data-checking", "");  // the figures shown are about to change
      timer = setTimeout(check, 250);
    }

    function update() {
      var out = form.querySelector('[name="went_out"]:checked');
      var concealed = form.querySelector('[name="concealed"]');
      var nobody = !!out && !/^\d+$/.test(out.value);
      concealed.disabled = nobody;
      if (nobody) concealed.checked = false;
      touched = true;
      soon();
    }

    form.addEventListener("input", update);
    form.addEventListener("change", update);
    form.addEventListener("reset", function () { setTimeout(update, 0); });
    window.addEventListener("online", soon);
    check();
  }

  // "Add a meld" (or "Add a sequence") without a round trip: a copy of the first row, empty,
  // with the next index. `kind` names the rows: "meld" or "sequence".
  function setupAddRow(form, blank, kind) {
    var d = form.dataset;
    var list = kind === "meld" ? "melds" : "sequences";
    var legend = kind === "meld" ? d.meldLegend : d.sequenceLegend;
    var most = kind === "meld" ? d.meldsMax : d.sequencesMax;
    var named = new RegExp("sides-\\d+-" + list + "-\\d+-", "g");
    each(form.querySelectorAll("[data-add-" + kind + "]"), function (button) {
      button.addEventListener("click", function (event) {
        var rows = button.parentNode.querySelector("[data-" + kind + "-rows]");
        var count = rows.querySelectorAll("[data-" + kind + "-row]").length;
        event.preventDefault();
        var row = blank.cloneNode(true);
        var column = button.closest("[data-tools]").dataset.tools;
        var rename = function (text) {
          return text.replace(named, "sides-" + column + "-" + list + "-" + count + "-");
        };
        each(row.querySelectorAll("[name], [id], [for], [aria-describedby]"), function (el) {
          ["name", "id", "for", "aria-describedby"].forEach(function (attr) {
            if (el.hasAttribute(attr)) el.setAttribute(attr, rename(el.getAttribute(attr)));
          });
        });
        row.querySelector("legend").textContent = legend.replace("{number}", count + 1);
        rows.appendChild(row);
        addSteppers(row, d);
        if (count + 1 >= toInt(most)) button.hidden = true;
        row.querySelector("[data-rank]").focus();
      });
    });
  }

  // An empty copy of a meld row (or a sequence row), taken before steppers are added.
  function blankRow(form, kind) {
    var first = form.querySelector("[data-" + kind + "-row]");
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
    return row;
  }

  function typable(box) {
    return box.getClientRects().length > 0 && !box.closest("details:not([open])") &&
      !box.readOnly && !box.disabled;
  }

  // Enter (Android's "Next") goes to the next box one can type into, in the page's order:
  // each side's boxes, then the next side's (never a closed counter); after the last, Save.
  function setupEnter(form) {
    var save = form.querySelector(".form-actions button[type=submit]");
    // A meld's rank (one letter typed) walks with the numbers.
    var WALKED = '[inputmode="numeric"], [data-rank]';
    function boxes() {
      return Array.prototype.slice.call(form.querySelectorAll(WALKED));
    }
    function nextOf(box) {
      var all = boxes();
      return all.slice(all.indexOf(box) + 1).find(typable) || null;
    }
    form.addEventListener("focusin", function (event) {
      var box = event.target;
      if (!box.matches(WALKED)) return;
      box.setAttribute("enterkeyhint", nextOf(box) ? "next" : "done");
    });
    form.addEventListener("keydown", function (event) {
      var box = event.target;
      if (event.key !== "Enter" || event.isComposing) return;
      if (!box.matches(WALKED)) return;
      var next = nextOf(box) || save;
      if (next) { event.preventDefault(); next.focus(); }
    });
  }

  // The other ways open where the thumb is: their box comes to the screen's top, a counter
  // opened waits in its first box (a meld's rank, typed in one key).
  function setupOtherWays(form) {
    var ways = form.querySelector("[data-other-ways]");
    if (ways) {
      ways.addEventListener("toggle", function () {
        if (ways.open) ways.scrollIntoView({ block: "start" });
      });
    }
    each(form.querySelectorAll("details.counter"), function (counter) {
      counter.addEventListener("toggle", function () {
        if (!counter.open) return;
        var first = Array.prototype.slice.call(counter.querySelectorAll("[inputmode]"))
          .find(typable);
        if (first) first.focus();
      });
    });
  }

  Scorer.ready(function () {
    var hand = document.querySelector("form[data-preview]");
    if (hand) {
      var blanks = { meld: blankRow(hand, "meld"), sequence: blankRow(hand, "sequence") };
      addSteppers(hand, hand.dataset);
      Object.keys(blanks).forEach(function (kind) {
        if (blanks[kind]) setupAddRow(hand, blanks[kind], kind);
      });
      setupPreview(hand); setupEnter(hand); setupOtherWays(hand);
    }
  });
})();
