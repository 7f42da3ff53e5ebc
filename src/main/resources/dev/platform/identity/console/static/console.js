// The console's one script (issue 21): the copy button beside a secret shown once. Everything
// else works without it.
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("button[data-copy]")) {
    button.hidden = false;
    button.addEventListener("click", async () => {
      const source = document.getElementById(button.dataset.copy);
      const status = document.getElementById(button.dataset.copy + "-copied");
      try {
        await navigator.clipboard.writeText(source.textContent.trim());
        if (status) status.textContent = "Copied.";
      } catch (e) {
        if (status) status.textContent = "Copy failed; select the text and copy it.";
      }
    });
  }
});
