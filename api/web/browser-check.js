// Run before the page's modules, as a plain script that any browser can parse: a browser
// too old for the page (Safari before 15.4, which lacks <dialog>.showModal, CSS :has(),
// Array.prototype.at and Object.hasOwn) is told so, instead of "Loading…" for ever, and
// app.js starts nothing there (window.sushigoTooOld).
(function () {
  var missing = [];
  if (typeof HTMLDialogElement !== "function" || !HTMLDialogElement.prototype.showModal) {
    missing.push("<dialog>");
  }
  if (!window.CSS || !CSS.supports || !CSS.supports("selector(:has(a))")) missing.push(":has()");
  if (!Array.prototype.at) missing.push("Array.prototype.at");
  if (!Object.hasOwn) missing.push("Object.hasOwn");
  if (!missing.length) return;
  window.sushigoTooOld = missing;
  document.addEventListener("DOMContentLoaded", function () {
    var main = document.getElementById("app");
    var message = document.createElement("p");
    message.className = "loading";
    message.setAttribute("data-testid", "too-old");
    message.textContent =
      "This browser is too old for this page. Use Safari on iOS 15.4 or later, or a " +
      "recent Chrome, Firefox or Edge. (Missing here: " + missing.join(", ") + ".)";
    main.textContent = "";
    main.appendChild(message);
  });
})();
