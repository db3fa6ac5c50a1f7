// Notes save as they are typed, and nothing typed is lost:
// - a form marked data-autosave saves the fields changed since it last sent them, a
//   moment after typing stops and when a field loses focus, and says so beside its
//   button ("Saving…", "Saved 10:02", "Not saved — retrying");
// - the shared notes (data-autosave="shared") poll data-live-url every few seconds:
//   the other person's saved words appear in the fields not being typed in, with who
//   wrote each field last and who is writing where. Saves merge per field on the
//   server; a field both people changed shows both texts side by side in the field,
//   and is left out of saves until its writer chooses (keep both, mine, or theirs);
// - the private note (data-autosave="private") saves the same way and polls nothing,
//   and says nothing to anyone about being written;
// - whatever leaves the page or changes the session (Log as held, Move, Cancel, a
//   link) first saves what is typed and goes on only once it is saved; the browser
//   asks before the page is closed with text unsaved.
(() => {
  const QUIET_MS = 1000; // typing pause before a save
  const POLL_MS = 4000;
  const RETRY_MS = 3000;
  const WRITING_MS = 6000; // typed this recently: "writing" for the others

  function announce(text) {
    const region = document.getElementById("announcer");
    if (!region) return;
    region.textContent = "";
    setTimeout(() => {
      region.textContent = text;
    }, 100);
  }

  function csrf(form) {
    const input = form.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function editor(form) {
    const shared = form.dataset.autosave === "shared";
    const statusLine = form.querySelector("[data-autosave-status]");
    const version = form.querySelector("input[name=version]");
    const inputs = [...form.querySelectorAll("textarea[name], input[name]")].filter(
      (el) => el.type !== "hidden" && el.name !== "csrfmiddlewaretoken",
    );
    const byName = new Map(inputs.map((el) => [el.name, el]));
    const dirty = new Set(); // changed since last sent
    const clashing = new Map(); // name → the saved text beside what is typed here
    let inflight = null;
    let timer = null;
    let retry = null;
    let lastTyped = { name: null, at: 0 };
    let problem = null; // why the last save did not go through

    function say(text) {
      if (statusLine) statusLine.textContent = text;
    }

    const pending = () => dirty.size > 0 || inflight !== null || clashing.size > 0;

    function schedule() {
      clearTimeout(timer);
      timer = setTimeout(save, QUIET_MS);
    }

    function body(names) {
      const data = new FormData();
      data.append("csrfmiddlewaretoken", csrf(form));
      data.append("version", version.value);
      if (!shared) {
        data.append("text", byName.get("text").value);
        return data;
      }
      for (const name of names) data.append(name, byName.get(name).value);
      return data;
    }

    async function send(names) {
      const response = await fetch(form.action, {
        method: "POST",
        body: body(names),
        credentials: "same-origin",
        headers: { "X-Autosave": "1", Accept: "application/json" },
      });
      let answer = {};
      try {
        answer = await response.json();
      } catch (_) {
        // a proxy's error page: treated as a failed save below
      }
      return { status: response.status, answer };
    }

    // Apply the notes as saved now to every field not being typed in.
    function apply(state) {
      if (!shared || !state.fields) return;
      version.value = state.version;
      for (const [name, text] of Object.entries(state.fields)) {
        const el = byName.get(name);
        if (!el || dirty.has(name) || clashing.has(name)) continue;
        if (el.value !== text) el.value = text;
      }
      for (const line of form.querySelectorAll("[data-written-for]")) {
        const mark = (state.written || {})[line.dataset.writtenFor];
        line.textContent = mark ? `Last written by ${mark.by}, ${mark.time}` : "";
      }
      const presence = form.querySelector("[data-presence]");
      if (presence && state.writing) {
        presence.textContent = state.writing
          .map((w) => `${w.name} is writing in ${w.label}.`)
          .join(" ");
      }
    }

    function showClash(name, texts) {
      const el = byName.get(name);
      if (!el) return;
      clashing.set(name, texts.saved);
      const field = el.closest("[data-field]");
      field.querySelector(".grow-input").classList.add("clashing");
      field.querySelector("[data-clash-for]").hidden = false;
      field.querySelector("[data-clash-saved]").textContent = texts.saved;
      field.querySelector("[data-clash-by]").textContent = texts.by ? ` by ${texts.by}` : "";
      const theirs = field.querySelector('[data-clash-keep="theirs"]');
      if (texts.by) theirs.textContent = `Keep ${texts.by}'s`;
      field.querySelector("[data-clash-caption]").hidden = false;
      field.querySelector("[data-clash-actions]").hidden = false;
    }

    function endClash(name) {
      clashing.delete(name);
      const field = byName.get(name).closest("[data-field]");
      field.querySelector(".grow-input").classList.remove("clashing");
      field.querySelector("[data-clash-for]").hidden = true;
      field.querySelector("[data-clash-caption]").hidden = true;
      field.querySelector("[data-clash-actions]").hidden = true;
    }

    // Save what changed since it was last sent; resolves true once nothing typed
    // is left unsaved.
    async function save(loud = false) {
      clearTimeout(timer);
      clearTimeout(retry);
      while (inflight) await inflight;
      const names = [...dirty].filter((name) => !clashing.has(name));
      if (!names.length) {
        if (loud && !pending()) announce(statusLine.textContent);
        return !pending();
      }
      names.forEach((name) => dirty.delete(name));
      say("Saving…");
      inflight = (async () => {
        let result;
        try {
          result = await send(names);
        } catch (_) {
          result = { status: 0, answer: {} };
        }
        const { status, answer } = result;
        if (status === 200 || status === 409) {
          problem = null;
          const conflicts = answer.conflicts || {};
          // First: a field both changed keeps what was typed here, beside theirs.
          for (const [name, texts] of Object.entries(conflicts)) showClash(name, texts);
          if (shared) apply(answer);
          else version.value = answer.version;
          if (Object.keys(conflicts).length) {
            const labels = Object.keys(conflicts).map((n) => labelOf(n)).join(", ");
            problem = `Not saved: ${labels} — both of you changed it. Both texts are shown there: choose one, or keep both.`;
            say(problem);
            announce(problem);
          } else if (status === 409 && !shared) {
            // Saved from another tab of this person: this tab's text is newer.
            dirty.add("text");
            retry = setTimeout(save, 0);
          } else if (clashing.size) {
            // The rest is saved; a field both changed still waits for its writer.
            const labels = [...clashing.keys()].map((n) => labelOf(n)).join(", ");
            say(`Saved ${answer.saved_at || ""} — except ${labels}: choose above.`);
          } else {
            say(`Saved ${answer.saved_at || ""}`.trim());
            if (loud) announce(statusLine.textContent);
          }
        } else {
          names.forEach((name) => dirty.add(name));
          if (status === 400) {
            const errors = Object.values(answer.errors || {}).flat();
            problem = `Not saved — ${errors[0] || "check what you typed"}`;
            say(problem);
            announce(problem);
          } else if (status === 403 || status === 404) {
            problem = "Not saved — you can no longer edit these notes. Copy your text, then reload.";
            say(problem);
            announce(problem);
          } else {
            problem = "Not saved — retrying";
            say(problem);
            retry = setTimeout(save, RETRY_MS);
          }
        }
      })();
      await inflight;
      inflight = null;
      if (dirty.size && !problem) return save(loud);
      return !pending();
    }

    function labelOf(name) {
      const label = form.querySelector(`label[for="${byName.get(name).id}"]`);
      return label ? label.textContent.trim() : name;
    }

    for (const el of inputs) {
      el.addEventListener("input", () => {
        lastTyped = { name: el.name, at: Date.now() };
        if (clashing.has(el.name)) return; // kept here until its writer chooses
        dirty.add(el.name);
        problem = null;
        say("Not saved yet");
        schedule();
      });
      el.addEventListener("blur", () => {
        if (dirty.has(el.name)) save();
      });
    }

    form.addEventListener("click", (event) => {
      const button = event.target.closest("[data-clash-keep]");
      if (!button) return;
      const name = button.closest("[data-field]").dataset.field;
      const el = byName.get(name);
      const saved = clashing.get(name);
      const choice = button.dataset.clashKeep;
      if (choice === "both") el.value = `${saved}\n\n${el.value}`;
      if (choice === "theirs") el.value = saved;
      endClash(name);
      if (choice !== "theirs") dirty.add(name);
      problem = null;
      el.focus();
      save();
    });

    // The Save button saves in place, like the autosave. A button that posts this
    // form elsewhere (Log as held) saves first, then goes there with the notes.
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      event.stopImmediatePropagation();
      const elsewhere = event.submitter && event.submitter.getAttribute("formaction");
      if (elsewhere) {
        saveAll().then((ok) => {
          if (!ok) return stuck();
          form.action = event.submitter.formAction;
          HTMLFormElement.prototype.submit.call(form);
        });
        return;
      }
      inputs.forEach((el) => {
        if (shared && el.value !== el.defaultValue) dirty.add(el.name);
      });
      if (!shared) dirty.add("text");
      if (!dirty.size) say(statusLine.textContent || "Nothing new to save");
      save(true);
    });

    async function poll() {
      if (document.hidden || inflight) return;
      if (dirty.size && !problem) {
        await save(); // merges with what the others saved, and answers it
        return;
      }
      const url = new URL(form.dataset.liveUrl, window.location.href);
      const typing = lastTyped.name && Date.now() - lastTyped.at < WRITING_MS;
      if (typing && form.contains(document.activeElement)) {
        url.searchParams.set("writing", lastTyped.name);
      }
      try {
        const response = await fetch(url, { credentials: "same-origin" });
        if (!response.ok || inflight) return;
        const state = await response.json();
        if (dirty.size) {
          // Typed meanwhile: the texts wait for this person's own save.
          const presence = form.querySelector("[data-presence]");
          if (presence) presence.textContent = "";
          return;
        }
        apply(state);
      } catch (_) {
        // offline: the next poll tries again
      }
    }
    if (shared && form.dataset.liveUrl) setInterval(poll, POLL_MS);

    return { pending, save };
  }

  const editors = [...document.querySelectorAll("form[data-autosave]")].map(editor);
  if (!editors.length) return;

  const pending = () => editors.some((e) => e.pending());
  async function saveAll() {
    const results = await Promise.all(editors.map((e) => e.save()));
    return results.every(Boolean) && !pending();
  }

  function stuck() {
    const text = "Your notes are not saved yet, so nothing else happened. Your text is still here.";
    announce(text);
    const status = document.querySelector("[data-autosave-status]");
    if (status && !status.textContent.startsWith("Not saved")) status.textContent = text;
  }

  // Log as held, and any other plain form that leaves the page: save first.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.matches("[data-autosave]") || form.hasAttribute("hx-post") || !pending()) return;
    event.preventDefault();
    saveAll().then((ok) => {
      if (ok) HTMLFormElement.prototype.submit.call(form);
      else stuck();
    });
  });

  // Move, Cancel and every link away: save first.
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[href]");
    if (!link || event.defaultPrevented || !pending()) return;
    if (event.ctrlKey || event.metaKey || event.shiftKey || link.target === "_blank") return;
    const to = new URL(link.href, window.location.href);
    if (to.pathname === window.location.pathname && to.hash) return; // same page
    event.preventDefault();
    saveAll().then((ok) => {
      if (ok) window.location.assign(link.href);
      else stuck();
    });
  });

  window.addEventListener("beforeunload", (event) => {
    if (!pending()) return;
    event.preventDefault();
    event.returnValue = "";
  });
})();
