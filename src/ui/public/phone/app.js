// The phlebotomist's phone app (served by lims under /phone/): the day's visits kept in IndexedDB,
// every action queued there with its own id and sent to /api/home-visits/sync when the network is
// there. The server applies each queued operation once, so sending the queue again is always safe.

const $main = document.getElementById('main');
const $net = document.getElementById('net');

// ---- IndexedDB: 'kv' keeps the day and the last answers, 'queue' the operations not yet sent.
const dbp = new Promise((resolve, reject) => {
  const req = indexedDB.open('lims-phone', 1);
  req.onupgradeneeded = () => {
    req.result.createObjectStore('kv');
    req.result.createObjectStore('queue', { keyPath: 'op_id' });
  };
  req.onsuccess = () => resolve(req.result);
  req.onerror = () => reject(req.error);
});
async function tx(store, mode, fn) {
  const db = await dbp;
  return new Promise((resolve, reject) => {
    const t = db.transaction(store, mode);
    const out = fn(t.objectStore(store));
    t.oncomplete = () => resolve(out && 'result' in out ? out.result : undefined);
    t.onerror = () => reject(t.error);
  });
}
const kvGet = (k) => tx('kv', 'readonly', (s) => s.get(k));
const kvSet = (k, v) => tx('kv', 'readwrite', (s) => s.put(v, k));
const queued = () => tx('queue', 'readonly', (s) => s.getAll());
const enqueue = (op) => tx('queue', 'readwrite', (s) => s.put({ ...op, queued_at: Date.now() }));
const dequeue = (ids) => tx('queue', 'readwrite', (s) => ids.forEach((id) => s.delete(id)));

const newId = () => `${Date.now().toString(36)}-${crypto.getRandomValues(new Uint32Array(2)).join('-')}`;
const esc = (t) => String(t ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function api(method, url, body) {
  const res = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(json.message ?? `HTTP ${res.status}`), { status: res.status });
  return json;
}

// ---- The visit as the phone sees it: the server's last word, with the queued operations on top.
function local(v, ops) {
  const mine = ops.filter((o) => o.booking_id === v.id).sort((a, b) => a.queued_at - b.queued_at);
  const s = { ...v, queuedOps: mine.length };
  for (const o of mine) {
    if (o.kind === 'start' && s.status === 'booked') s.status = 'started';
    if (o.kind === 'arrive') s.arrived_at = o.at;
    if (o.kind === 'collect') s.status = 'collected';
    if (o.kind === 'pay') s.paid = (s.paid ?? 0) + o.amount;
    if (o.kind === 'refuse') s.status = 'refused';
    if (o.kind === 'fail') s.status = 'failed';
  }
  return s;
}

async function loadDay() {
  try {
    // The lab's today, as the server counts it.
    const { date, visits } = await api('GET', '/api/home-visits');
    await kvSet('day', { date, visits });
  } catch (err) {
    if (err.status === 401) return renderLogin();
    if (err.status === 403) return renderMessage('This account is not a phlebotomist (collect_at_home).');
  }
  return render();
}

// One sync at a time; a sync that could not reach the server tries again with a growing wait
// (5 s, doubling to a minute) while operations stay queued, since the 'online' event comes once
// and the first request after it may still fail on a weak signal.
let syncing = null;
let retryTimer = null;
let retryDelay = 5_000;

function retryLater() {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => void sync(), retryDelay);
  retryDelay = Math.min(retryDelay * 2, 60_000);
}

function sync() {
  syncing ??= syncOnce().finally(() => {
    syncing = null;
  });
  return syncing;
}

async function syncOnce() {
  const ops = (await queued()).sort((a, b) => a.queued_at - b.queued_at);
  if (!ops.length) return render();
  if (!navigator.onLine) {
    retryLater();
    return render();
  }
  try {
    const { results } = await api('POST', '/api/home-visits/sync', {
      ops: ops.map((o) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'queued_at'))),
    });
    const notes = (await kvGet('notes')) ?? {};
    for (const r of results) {
      const op = ops.find((o) => o.op_id === r.op_id);
      if (op && r.outcome !== 'applied')
        notes[op.booking_id] = `${r.outcome === 'conflict' ? 'Conflict' : 'Refused'}: ${r.message}`;
    }
    await kvSet('notes', notes);
    await dequeue(results.map((r) => r.op_id));
    retryDelay = 5_000;
  } catch {
    // Still offline, or the server did not answer: the queue stays, and the phone tries again.
    retryLater();
  }
  return loadDay();
}

function renderMessage(text) {
  $main.innerHTML = `<div class="card">${esc(text)}</div>`;
}

function renderLogin() {
  $main.innerHTML = `<form class="card" id="login"><h2>Sign in</h2>
    <label>Email<input name="email" type="email" autocomplete="username" required /></label>
    <label>Password<input name="password" type="password" autocomplete="current-password" required /></label>
    <div class="row"><button type="submit">Sign in</button></div><p class="muted" id="login-error"></p></form>`;
  document.getElementById('login').addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    try {
      await api('POST', '/api/auth/login', { email: f.get('email'), password: f.get('password') });
      await loadDay();
    } catch (err) {
      document.getElementById('login-error').textContent = err.message;
    }
  });
}

const STATUS = {
  booked: 'Booked',
  started: 'Started',
  collected: 'Collected',
  refused: 'Refused',
  failed: 'Failed draw',
  cancelled: 'Cancelled',
  no_show: 'No-show',
};

function visitCard(v, note) {
  const open = v.status === 'booked' || v.status === 'started';
  const due = Math.max(0, v.amount_due - (v.paid ?? 0));
  return `<article class="card" data-id="${v.id}" aria-label="Visit ${esc(v.booking_number)}">
    <div class="row" style="justify-content:space-between;margin:0"><h2>${esc(v.slot_time)} · ${esc(v.patient_name)}</h2>
    <span class="badge ${esc(v.status)}">${esc(STATUS[v.status] ?? v.status)}</span></div>
    <div class="muted">${esc(v.booking_number)} · ${esc(v.address)}, ${esc(v.pin_code)}${v.map_link ? ` · <a href="${esc(v.map_link)}" target="_blank" rel="noopener">Map</a>` : ''}</div>
    <div class="muted">${esc(v.items.map((i) => i.name).join(', '))}${v.fasting_hours ? ` · fasting ${v.fasting_hours} h` : ''} · ₹${v.amount_due.toFixed(2)}</div>
    ${
      v.status === 'booked'
        ? `<div class="row">
      <button class="secondary" data-act="arrive" ${v.arrived_at ? 'disabled' : ''}>${v.arrived_at ? 'Arrived' : 'I have arrived'}</button></div>
      <div class="row"><label>Visit code<input data-field="otp" inputmode="numeric" maxlength="6" /></label>
      <button data-act="start">Start visit</button></div>`
        : ''
    }
    ${
      v.status === 'started'
        ? `<div class="row" style="display:grid">${v.tubes.map((t) => `<div class="tube"><span>${esc(t.container)}</span><span>${esc(t.barcode)}</span></div>`).join('')}</div>
      <div class="row"><button data-act="collect">Tubes collected</button></div>`
        : ''
    }
    ${
      v.status === 'collected' && due > 0
        ? `<div class="row"><label>Method<select data-field="method"><option value="upi">UPI</option><option value="cash">Cash</option></select></label>
      <label>Amount<input data-field="amount" inputmode="decimal" value="${due.toFixed(2)}" /></label>
      <label>UPI reference<input data-field="reference" /></label><button data-act="pay">Take payment</button></div>`
        : ''
    }
    ${v.status === 'collected' && due === 0 ? '<div class="muted">Paid in full.</div>' : ''}
    ${
      open
        ? `<div class="row"><label>Reason<input data-field="reason" /></label>
      <button class="danger" data-act="refuse">Refused</button><button class="danger" data-act="fail">Failed draw</button></div>`
        : ''
    }
    ${v.queuedOps ? `<div class="queued">${v.queuedOps} change(s) waiting to sync</div>` : ''}
    ${note ? `<div class="conflict" role="alert">${esc(note)}</div>` : ''}
  </article>`;
}

async function render() {
  const day = await kvGet('day');
  const ops = await queued();
  const notes = (await kvGet('notes')) ?? {};
  $net.textContent = navigator.onLine ? 'Online' : 'Offline';
  $net.className = navigator.onLine ? 'pill' : 'pill off';
  if (!day) return renderMessage(navigator.onLine ? 'Loading the day…' : 'Offline, and the day was never loaded.');
  const visits = day.visits.map((v) => local(v, ops));
  $main.innerHTML = `<div class="card"><div class="row" style="justify-content:space-between;margin:0">
    <span><strong>${visits.length}</strong> visit(s) on ${esc(day.date)} · <span id="queue-count">${ops.length}</span> waiting</span>
    <button class="secondary" data-act="sync" ${ops.length && navigator.onLine ? '' : 'disabled'}>Sync now</button></div></div>
    ${visits.map((v) => visitCard(v, notes[v.id])).join('') || '<div class="card">No visits assigned for today.</div>'}`;
}

async function position() {
  if (!navigator.geolocation) return {};
  return new Promise((resolve) =>
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ latitude: p.coords.latitude, longitude: p.coords.longitude }),
      () => resolve({}),
      { timeout: 3000, maximumAge: 60000 },
    ),
  );
}

$main.addEventListener('click', async (e) => {
  const btn = e.target.closest('button[data-act]');
  if (!btn) return;
  const act = btn.dataset.act;
  if (act === 'sync') return sync();
  const card = btn.closest('article');
  const id = Number(card.dataset.id);
  const field = (n) => card.querySelector(`[data-field="${n}"]`)?.value.trim() ?? '';
  const day = await kvGet('day');
  const v = local(
    day.visits.find((x) => x.id === id),
    await queued(),
  );
  const base = { op_id: newId(), booking_id: id, at: new Date().toISOString() };
  if (act === 'arrive') await enqueue({ ...base, kind: 'arrive', ...(await position()) });
  if (act === 'start') await enqueue({ ...base, kind: 'start', otp: field('otp') });
  if (act === 'collect')
    await enqueue({
      ...base,
      kind: 'collect',
      tubes: v.tubes.map((t) => ({ barcode: t.barcode, collected_at: base.at })),
    });
  if (act === 'pay')
    await enqueue({
      ...base,
      kind: 'pay',
      method: field('method'),
      amount: Number(field('amount')),
      reference: field('reference') || null,
    });
  if (act === 'refuse' || act === 'fail')
    await enqueue({
      ...base,
      kind: act,
      reason: field('reason') || (act === 'refuse' ? 'Patient refused' : 'Draw failed'),
    });
  return navigator.onLine ? sync() : render();
});

window.addEventListener('online', () => void sync());
window.addEventListener('offline', () => void render());
if ('serviceWorker' in navigator) void navigator.serviceWorker.register('/phone/sw.js', { scope: '/phone/' });
void render().then(loadDay).then(sync);
