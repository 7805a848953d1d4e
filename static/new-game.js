/* Canasta scorer, the new-game and new-club forms: another variant brings its own house-rule
   values, and its seats. The forms work without this file (the server compares with what was
   shown, and a "show" button redraws them: HouseRulesFields.show_variant does the same). */
(function () {
  "use strict";
  // The house-rules editor (the _macros.html house_rules) of a form whose "profile" is chosen.
  function setupVariants(form, grid) {
    var defaults = JSON.parse(grid.dataset.ruleDefaults);
    var select = form.elements.profile;
    var shown = form.elements.rules_for;
    var label = form.querySelector(".house-rules-form .rules-variant");
    var text = function (v) { return v === null || v === undefined ? "" : String(v); };
    var show = form.querySelector(".show-rules");
    if (show) show.hidden = true;  // the values follow the variant at once

    function swap(name, before, after) {
      var input = form.elements[name];
      if (input && input.value.trim() === text(before)) input.value = text(after);
    }

    select.addEventListener("change", function () {
      var before = defaults[shown.value];
      var after = defaults[select.value];
      if (!before || !after) return;
      Object.keys(after).forEach(function (key) {
        if (key !== "minimums" && key !== "choices") swap(key, before[key], after[key]);
      });
      // Each family's own boxes (Modern American's canastas of sevens...): shown and sent
      // only with a variant of that family.
      each(form.querySelectorAll(".rule-box[data-rule]"), function (box) {
        var mine = after[box.dataset.rule] !== null && after[box.dataset.rule] !== undefined;
        box.hidden = !mine;
        each(box.querySelectorAll("input"), function (input) { input.disabled = !mine; });
      });
      // Each way of playing offers the family's chips (Samba's red threes count against a
      // side short of its canastas): another family's are hidden and sent by none.
      Object.keys(after.choices).forEach(function (key) {
        var offered = after.choices[key];
        each(form.querySelectorAll('input[type=radio][name="' + key + '"]'), function (radio) {
          var mine = offered.indexOf(radio.value) !== -1;
          radio.closest("label").hidden = !mine;
          radio.disabled = !mine;
          if (!mine && radio.checked) form.elements[key].value = offered[0];
        });
      });
      after.minimums.forEach(function (row, i) {
        var old = before.minimums[i];
        swap("minimums-" + i + "-start", old[0], row[0]);
        swap("minimums-" + i + "-minimum", old[1], row[1]);
      });
      shown.value = select.value;
      if (label) label.textContent = select.options[select.selectedIndex].text;
    });
  }

  // The seats follow the variant at once: its seatings, the boxes each shows, its target.
  // Both new-game forms (a plain game, a club's) lay their boxes out alike.
  function setupSeats(form) {
    var players = form.querySelector("[data-seatings]");
    var all = JSON.parse(players.dataset.seatings);
    var select = form.elements.seating;
    var target = form.elements.target.options[0];
    form.querySelector(".show-seats").hidden = true;

    function seats() {
      var list = all[form.elements.profile.value] || all.classic;
      var chosen = list.find(function (s) { return s.key === select.value; }) || list[0];
      select.textContent = "";
      list.forEach(function (s) { select.add(new Option(s.label, s.key, false, s === chosen)); });
      target.textContent = players.dataset.usual.replace("{t}", chosen.target);
      var alone = chosen.key === "alone";
      players.classList.toggle("alone", alone);
      var partners = players.querySelector(".partners-hint");
      if (partners) partners.hidden = alone;  // nobody has a partner
      each(players.querySelectorAll(".team"), function (team, i) {
        var size = chosen.sizes[i] || 0;
        team.hidden = !size;
        each(team.querySelectorAll(".seat"), function (seat, j) {
          seat.hidden = j >= size;
          seat.querySelector("label").textContent =
            players.dataset.player.replace("{n}", (alone ? i : j) + 1);
        });
      });
      dealers();
    }

    // "Deals first": a choice among the names typed in the boxes shown (plain form only).
    var typed = form.elements.first_dealer;
    var dealers = typed ? setupDealers(form, players, typed) : function () {};
    form.elements.profile.addEventListener("change", seats);
    select.addEventListener("change", seats);
    seats();
  }

  function setupDealers(form, players, typed) {
    var pick = document.createElement("select");
    pick.id = typed.id;
    typed.removeAttribute("id");
    typed.hidden = true;
    typed.insertAdjacentElement("afterend", pick);
    function dealers() {
      var names = [];
      each(players.querySelectorAll(".team:not([hidden]) .seat:not([hidden]) input"), function (box) {
        if (box.value.trim()) names.push(box.value.trim());
      });
      var keep = pick.value || typed.value.trim();
      pick.textContent = "";
      pick.add(new Option(typed.placeholder, ""));
      names.forEach(function (n) {
        pick.add(new Option(n, n, false, n.toLowerCase() === keep.toLowerCase()));
      });
      typed.value = pick.value;
    }
    pick.addEventListener("change", function () { typed.value = pick.value; });
    players.addEventListener("input", dealers);
    return dealers;
  }

  var each = Scorer.each;
  each(document.querySelectorAll("form [data-rule-defaults]"), function (grid) {
    setupVariants(grid.closest("form"), grid);
  });
  each(document.querySelectorAll("form [data-seatings]"), function (players) {
    setupSeats(players.closest("form"));
  });
})();
