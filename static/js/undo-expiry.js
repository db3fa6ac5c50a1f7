// An Undo offered for a moment (closing a commitment) hides itself when its time is
// up, counted from when it arrived: the server would refuse it after, saying so.
(() => {
  function schedule(root) {
    root.querySelectorAll("[data-undo-seconds]:not([data-undo-scheduled])").forEach((form) => {
      form.setAttribute("data-undo-scheduled", "");
      const seconds = Number(form.getAttribute("data-undo-seconds")) || 0;
      setTimeout(() => {
        if (form.contains(document.activeElement)) {
          const part = form.closest("section, .notice, td") || document.body;
          part.setAttribute("tabindex", "-1");
          part.focus();
        }
        form.remove();
      }, seconds * 1000);
    });
  }
  document.addEventListener("DOMContentLoaded", () => schedule(document));
  document.addEventListener("htmx:afterSettle", (event) => schedule(event.target));
})();
