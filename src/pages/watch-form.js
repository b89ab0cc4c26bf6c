// The report page's "Watch this site" form, submitted inline: the same POST as without this
// script, asking for JSON, and the answer (or what to fix) said in the form's status line.
// Without this script the browser posts the form and shows the page the server answers.
(() => {
  const form = document.querySelector('form[data-watch-form]');
  if (!form || !window.fetch) return;
  const status = form.querySelector('[data-watch-status]');
  const button = form.querySelector('button[type="submit"]');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    button.disabled = true;
    status.textContent = 'Sending…';
    try {
      const res = await fetch(form.action, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(new FormData(form)).toString(),
      });
      const body = await res.json().catch(() => ({}));
      if (res.ok) {
        status.textContent = `Check your mail: ${body.note || 'a confirmation link is on its way.'}`;
        form.querySelectorAll('input, select').forEach((el) => { el.disabled = true; });
        return;
      }
      status.textContent = [body.error, body.hint].filter(Boolean).join(' ') || `The watch could not be created (${res.status}).`;
    } catch {
      status.textContent = 'The watch could not be sent; check your connection and try again.';
    }
    button.disabled = false;
  });
})();
