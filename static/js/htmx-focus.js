// Keyboard and screen-reader users keep their place when htmx swaps a part of the
// page (a section saved in place replaces the button that sent it, and focus would
// fall back to the top of the page):
// - a field marked invalid gets focus (its label and error are read with it), else an
//   error summary, else the control that sent the form (found again by its name,
//   value and text), else the part's heading, else its first control;
// - what the part says it did ("Saved.", in .saved) is read out by #announcer, a
//   live region that stays on the page (a region swapped in is often not read), and
//   only there: .saved is no live region itself, or some readers would say it twice.
//   It is read however the request was sent (a click in Safari focuses no button).
// A page that comes back with errors after a plain post puts focus on the first
// invalid field the same way.
(() => {
  let sent = null; // the focused control when a request left, and the part it was in

  const lost = () => !document.activeElement || document.activeElement === document.body;

  function focusOn(element) {
    if (!element.matches("a[href], button, input, select, textarea, summary, [tabindex]")) {
      element.setAttribute("tabindex", "-1");
    }
    element.focus();
  }

  function firstInvalid(root) {
    return root.querySelector('[aria-invalid="true"]:not([type="hidden"])');
  }

  function sameControl(part, control) {
    const text = control.textContent.trim();
    return [...part.querySelectorAll(control.tagName)].find(
      (candidate) =>
        candidate.name === control.name &&
        candidate.value === control.value &&
        candidate.textContent.trim() === text,
    );
  }

  function announce(part) {
    const region = document.getElementById("announcer");
    const said = [...part.querySelectorAll(".saved")].map((e) => e.textContent.trim());
    if (!region || !said.length) return;
    region.textContent = "";
    // A change a moment later, so the same words twice in a row are read again.
    setTimeout(() => {
      region.textContent = said.join(" ");
    }, 100);
  }

  document.addEventListener("htmx:beforeRequest", (event) => {
    const target = event.detail.target;
    const active = document.activeElement;
    sent = target && active && target.contains(active) ? { id: target.id, control: active } : null;
  });

  document.addEventListener("htmx:afterSettle", (event) => {
    const from = sent;
    sent = null;
    // The part by its id, else what was swapped in (a link that replaces itself).
    const part = (from && from.id && document.getElementById(from.id)) || event.target;
    if (!part || !part.isConnected || part === document.body) return;
    announce(part);
    // Focus moves only in answer to what the person did from inside the part:
    // polling and searches-as-you-type leave it where it is.
    if (!from) return;
    const invalid = firstInvalid(part);
    if (invalid && (lost() || part.contains(document.activeElement))) {
      focusOn(invalid);
    } else if (lost()) {
      const summary = part.querySelector(".errors[role=alert]");
      const again = sameControl(part, from.control);
      const heading = part.querySelector("h2, h3");
      const first = part.querySelector(
        "input:not([type=hidden]), select, textarea, button, a[href]",
      );
      const next = summary || again || heading || first;
      if (next) focusOn(next);
    }
  });

  document.addEventListener("DOMContentLoaded", () => {
    const main = document.getElementById("main");
    const invalid = main && firstInvalid(main);
    if (invalid) invalid.focus();
  });
})();
