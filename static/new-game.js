/* Canasta scorer, new-game form: another variant brings its own house-rule values.
   The form works without this file (the server compares with what was shown). */
(function () {
  "use strict";
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

  var form = document.querySelector("form[data-rule-defaults]");
  if (form) setupVariants(form);
})();
