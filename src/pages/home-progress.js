// The home page's progress script, served as /assets/home.js under the page's CSP
// (script-src 'self'; connect-src 'self'). Optional: without it the form posts the same.
// On submit it gives the form a random progressId, listens to /scan/progress/{id} and lets
// the browser post the form as usual; the 303 to the report (or the form page with what
// went wrong) replaces this page when the scan is over.
(function () {
  'use strict';
  var form = document.getElementById('scan-form');
  var region = document.getElementById('progress');
  var list = document.getElementById('progress-list');
  var note = document.getElementById('progress-note');
  if (!form || !region || !list || !note || typeof window.EventSource !== 'function' || !window.crypto || typeof window.crypto.randomUUID !== 'function') return;

  var LABELS = {
    coalesced: 'Waiting for a scan of this site that was already running',
    queued: 'Waiting for room: the service is busy with other scans',
    robots: 'Reading robots.txt',
    'grid-networkA': 'Your home page as each agent, from networkA',
    'grid-networkB': 'Your home page as each agent, from networkB',
    files: 'Well-known files (llms.txt, sitemap, API and MCP documents)',
    followups: 'Following up what they point to',
    scoring: 'Scoring',
  };
  var ORDER = ['robots', 'grid-networkA', 'grid-networkB', 'files', 'followups', 'scoring'];
  var source = null;

  function item(phase) {
    var li = list.querySelector('li[data-phase="' + phase + '"]');
    if (!li) {
      li = document.createElement('li');
      li.setAttribute('data-phase', phase);
      li.setAttribute('data-status', 'waiting');
      var label = document.createElement('span');
      label.className = 'label';
      label.textContent = LABELS[phase] || phase;
      var state = document.createElement('span');
      state.className = 'state';
      state.textContent = 'waiting';
      li.appendChild(label);
      li.appendChild(document.createTextNode(': '));
      li.appendChild(state);
      // Waiting comes before the scan's own phases, whenever it is heard.
      if (phase === 'coalesced') list.insertBefore(li, list.firstChild);
      else if (phase === 'queued') list.insertBefore(li, list.querySelector('li:not([data-phase="coalesced"])'));
      else list.appendChild(li);
    }
    return li;
  }

  function show(p) {
    var li = item(p.phase);
    var state = li.querySelector('.state');
    var counts = p.total > 1 ? ' (' + p.done + ' of ' + p.total + ')' : '';
    var before = li.getAttribute('data-status');
    li.setAttribute('data-status', p.status);
    state.textContent = (p.status === 'done' ? 'done' : 'running') + counts;
    // The live note says each phase once when it starts waiting and once when it is done, not every count.
    if (before !== p.status && (p.status === 'done' || p.phase === 'coalesced' || p.phase === 'queued')) note.textContent = (LABELS[p.phase] || p.phase) + ': ' + (p.status === 'done' ? 'done' : 'running') + '.';
  }

  function stopListening() {
    if (source) source.close();
    source = null;
  }

  function reset() {
    stopListening();
    list.textContent = '';
    note.textContent = '';
    region.hidden = true;
    form.removeAttribute('aria-busy');
    var button = form.querySelector('button[type="submit"]');
    if (button) button.disabled = false;
  }

  form.addEventListener('submit', function (event) {
    if (event.defaultPrevented) return;
    var id = window.crypto.randomUUID();
    var field = form.querySelector('input[name="progressId"]');
    if (!field) {
      field = document.createElement('input');
      field.type = 'hidden';
      field.name = 'progressId';
      form.appendChild(field);
    }
    field.value = id;

    stopListening();
    list.textContent = '';
    ORDER.forEach(item);
    note.textContent = 'The scan is running; this usually takes 10 to 30 seconds. The report opens here when it is done.';
    region.hidden = false;
    region.scrollIntoView({ block: 'center' });
    form.setAttribute('aria-busy', 'true');
    // Disabled after this event, so the browser still submits the form with it.
    var button = form.querySelector('button[type="submit"]');
    if (button) setTimeout(function () { button.disabled = true; }, 0);

    source = new EventSource('/scan/progress/' + id);
    source.addEventListener('phase', function (m) {
      try { show(JSON.parse(m.data)); } catch (e) { /* a malformed event changes nothing */ }
    });
    source.addEventListener('end', function (m) {
      var outcome = '';
      try { outcome = JSON.parse(m.data).outcome; } catch (e) { /* ignore */ }
      stopListening();
      note.textContent = outcome === 'complete' ? 'Done: opening the report.' : 'The scan is over: opening the result.';
    });
    source.addEventListener('error', function () {
      // The stream is gone for good (closed, or the page is leaving): the form still posts.
      if (source && source.readyState === EventSource.CLOSED) {
        stopListening();
        note.textContent = 'Progress is not available, but the scan goes on; the report opens here when it is done.';
      }
    });
    // No preventDefault: the browser posts the form exactly as it would without this script.
  });

  // Back to this page from the report (back/forward cache): the form is ready again.
  window.addEventListener('pageshow', function (event) {
    if (event.persisted) reset();
  });
})();
