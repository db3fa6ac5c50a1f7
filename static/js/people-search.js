// Enter in a people search box (people/pickers.py) searches at once instead of
// submitting the form around it half filled in. Everything else is htmx.
document.addEventListener("keydown", (event) => {
  const box = event.target;
  if (event.key !== "Enter" || !box.matches(".people-search input[type=search]")) return;
  event.preventDefault();
  box.dispatchEvent(new Event("search"));
});
