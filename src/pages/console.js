// The partner console's script (GET /console). It asks for the key once per tab session, keeps it
// in sessionStorage and sends it only as the bearer header of GET /keys/me, /batches and
// /watches. Everything it shows is written with textContent (domains and labels are chosen by
// whoever submitted them), and a link is made only of an http(s) URL. A 401 from any call
// forgets the key at once: a revoked key is refused and nothing of it stays in the tab.
(() => {
  const STORE = 'agent-readiness.partner-key';
  const $ = (id) => document.getElementById(id);
  const status = $('status');
  const signin = $('signin');
  const signed = $('signed');
  const cursors = { batches: null, watches: null };

  const key = () => { try { return sessionStorage.getItem(STORE); } catch { return null; } };
  const forget = () => { try { sessionStorage.removeItem(STORE); } catch { /* storage off: nothing kept */ } };

  class Refused extends Error {}

  async function get(path) {
    const res = await fetch(path, { headers: { authorization: `Bearer ${key()}`, accept: 'application/json' }, credentials: 'omit', cache: 'no-store' });
    const body = await res.json().catch(() => ({}));
    if (res.status === 401) throw new Refused(body.error || 'The key was refused.');
    if (!res.ok) throw new Error([body.error, body.hint].filter(Boolean).join(' ') || `The service answered ${res.status}.`);
    return body;
  }

  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  };
  const link = (href, text) => {
    let ok = false;
    try { ok = ['http:', 'https:'].includes(new URL(href, location.href).protocol); } catch { ok = false; }
    if (!ok) return el('span', text);
    const a = el('a', text);
    a.href = href;
    a.rel = 'noreferrer';
    return a;
  };
  const when = (iso) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC') : '—');
  /** A definition list of [term, text or node] pairs. */
  const facts = (pairs) => {
    const dl = el('dl', undefined, 'kv');
    for (const [k, v] of pairs) {
      dl.append(el('dt', k));
      const dd = el('dd');
      if (v instanceof Node) dd.append(v); else dd.textContent = String(v);
      dl.append(dd);
    }
    return dl;
  };
  const links = (parts) => {
    const span = el('span');
    parts.forEach(([href, text], i) => { if (i) span.append(' · '); span.append(link(href, text)); });
    return span;
  };

  function batchItem(b) {
    const li = el('li', undefined, 'ev');
    li.append(el('h3', b.label || `Batch ${b.batchId}`));
    const finished = b.done + b.failed;
    li.append(facts([
      ['Status', b.status],
      ['Progress', `${finished} of ${b.total} finished (${b.done} done, ${b.failed} failed, ${b.pending} pending${b.cancelled ? `, ${b.cancelled} cancelled` : ''})`],
      ['Created', when(b.createdAt)],
      ['Links', links([[b.links.summaryPage, 'summary page'], [b.links.resultsPage, 'results table']])],
      ['Batch id', b.batchId],
    ]));
    return li;
  }

  function watchItem(w) {
    const li = el('li', undefined, 'ev');
    li.append(el('h3', w.domain));
    const run = w.lastRun;
    const last = run ? el('span', `${run.state}${run.headline ? `, ${run.headline}` : ''}${run.score !== null ? `, score ${run.score}` : ''} (${when(run.finishedAt || run.startedAt)})`) : el('span', 'none yet');
    if (run && run.reportUrl) { last.append(' '); last.append(link(run.reportUrl, 'report')); }
    li.append(facts([
      ['Status', `${w.status}, every ${w.every}`],
      ['Last run', last],
      ['Last change', when(w.lastChangeAt)],
      ['Failing deliveries', w.failingDeliveries],
      ['Manage', link(w.manageUrl, 'manage page')],
    ]));
    if (w.failingDeliveries > 0) li.classList.add('bad');
    return li;
  }

  async function more(kind) {
    const cursor = cursors[kind];
    const body = await get(`/${kind}?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    const list = $(kind);
    for (const item of body.items) list.append(kind === 'batches' ? batchItem(item) : watchItem(item));
    if (!list.children.length) list.append(el('li', kind === 'batches' ? 'No batch yet.' : 'No watch yet.', 'muted'));
    cursors[kind] = body.nextCursor;
    $(`${kind}-more`).hidden = !body.nextCursor;
  }

  function refused(message) {
    forget();
    signed.hidden = true;
    signin.hidden = false;
    $('batches').replaceChildren();
    $('watches').replaceChildren();
    status.textContent = `${message} The key has been forgotten in this tab; enter a valid key to sign in again.`;
    $('key').focus();
  }

  async function load() {
    status.textContent = 'Loading…';
    try {
      const me = await get('/keys/me');
      $('key-name').textContent = me.name;
      $('key-limit').textContent = String(me.budget.limit);
      $('key-left').textContent = String(me.budget.remaining);
      $('key-reset').textContent = `in ${Math.ceil(me.budget.resetSeconds / 60)} minutes (00:00 UTC)`;
      cursors.batches = null;
      cursors.watches = null;
      $('batches').replaceChildren();
      $('watches').replaceChildren();
      await more('batches');
      await more('watches');
      signin.hidden = true;
      signed.hidden = false;
      status.textContent = `Signed in as ${me.name}.`;
    } catch (err) {
      if (err instanceof Refused) refused(err.message);
      else status.textContent = err.message;
    }
  }

  function page(kind) {
    return async () => {
      try { await more(kind); } catch (err) { if (err instanceof Refused) refused(err.message); else status.textContent = err.message; }
    };
  }

  $('signin-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = $('key');
    try { sessionStorage.setItem(STORE, input.value.trim()); } catch { status.textContent = 'This browser keeps nothing in session storage, so the console cannot sign in.'; return; }
    input.value = '';
    void load();
  });
  $('signout').addEventListener('click', () => {
    forget();
    signed.hidden = true;
    signin.hidden = false;
    status.textContent = 'Signed out; the key is forgotten in this tab.';
  });
  $('batches-more').addEventListener('click', page('batches'));
  $('watches-more').addEventListener('click', page('watches'));

  if (key()) void load(); else signin.hidden = false;
})();
