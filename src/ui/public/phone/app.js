// The phlebotomist's phone app (served by lims under /phone/): the day's visits kept in IndexedDB,
// every action queued there with its own id and sent to /api/home-visits/sync when the network is
// there. The server applies each queued operation once, so sending the queue again is always safe.

import { api, dequeue, enqueue, esc, kvGet, kvSet, newId, queued } from './store.js';

const $main = document.getElementById('main');
const $net = document.getElementById('net');

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

// One sync at a time. A sync asked for while one runs (the 'online' event, a new operation, the
// button) runs again after it, never folded into it: the running one may have read the phone
// offline or sent the queue before the newest operation.
//
// A sync that could not reach the server while the phone says it is online tries again after a
// growing wait (5 s, doubling to a minute): the 'online' event comes as soon as an interface is
// up, often before requests get through (a weak signal, a captive portal). While the phone says
// it is offline no attempt is made and the wait does not grow: the 'online' event starts the next
// sync at once, with the wait back at 5 s. Otherwise an hour in a basement would leave the first
// failed request after it waiting a full minute with the queue in the phlebotomist's hand.
const FIRST_RETRY = 5_000;
const LAST_RETRY = 60_000;
let syncing = null;
let again = false;
let retryTimer = null;
let retryDelay = FIRST_RETRY;
let nextTry = null;

function retryLater() {
  clearTimeout(retryTimer);
  nextTry = Date.now() + retryDelay;
  retryTimer = setTimeout(() => {
    nextTry = null;
    void sync();
  }, retryDelay);
  retryDelay = Math.min(retryDelay * 2, LAST_RETRY);
}

function sync() {
  if (syncing) {
    again = true;
    return syncing;
  }
  syncing = syncOnce().finally(() => {
    syncing = null;
    if (again) {
      again = false;
      void sync();
    }
  });
  return syncing;
}

async function syncOnce() {
  const ops = (await queued()).sort((a, b) => a.queued_at - b.queued_at);
  if (!ops.length || !navigator.onLine) return render();
  clearTimeout(retryTimer);
  nextTry = null;
  try {
    const { results } = await api('POST', '/api/home-visits/sync', {
      ops: ops.map((o) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'queued_at'))),
    });
    const notes = (await kvGet('notes')) ?? {};
    for (const r of results) {
      const op = ops.find((o) => o.op_id === r.op_id);
      if (!op) continue;
      // A later operation on the visit that went through makes an earlier refusal old news.
      if (r.outcome === 'applied') delete notes[op.booking_id];
      else notes[op.booking_id] = `${r.outcome === 'conflict' ? 'Conflict' : 'Refused'}: ${r.message}`;
    }
    await kvSet('notes', notes);
    await dequeue(results.map((r) => r.op_id));
    retryDelay = FIRST_RETRY;
  } catch (err) {
    // Signed out meanwhile: the queue stays on the phone until the phlebotomist signs in again.
    if (err.status === 401) return renderLogin();
    // The server refused the shape of some operations (a phone on an older app, a bad value): those
    // are taken off the queue with the reason on their visit, and the rest is sent at once. Kept,
    // they would hold every other visit's operations on the phone for ever.
    const bad = refusedOps(err, ops);
    if (bad.length) {
      const notes = (await kvGet('notes')) ?? {};
      for (const { op, message } of bad) notes[op.booking_id] = `Refused: ${message}`;
      await kvSet('notes', notes);
      await dequeue(bad.map(({ op }) => op.op_id));
      again = true;
      return loadDay();
    }
    // The network went again, or the server did not answer: the queue stays, and the phone tries again.
    if (navigator.onLine) retryLater();
  }
  return loadDay();
}

// The operations a 400 names by their place in the batch ("ops.3.otp"), with the server's words.
function refusedOps(err, ops) {
  if (err.status !== 400 || !Array.isArray(err.details)) return [];
  const bad = new Map();
  for (const d of err.details) {
    const m = /^ops\.(\d+)(?:\.|$)/.exec(String(d.path ?? ''));
    const op = m && ops[Number(m[1])];
    if (op && !bad.has(op.op_id)) bad.set(op.op_id, { op, message: d.message });
  }
  return [...bad.values()];
}

function onOnline() {
  retryDelay = FIRST_RETRY;
  void sync();
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

// A tube's barcode as the lab drew it for the day (SVG, kept with the day): an image, never markup.
function labelImage(t) {
  return t.label_svg
    ? `<img class="barcode" alt="Barcode ${esc(t.barcode)}" src="data:image/svg+xml,${encodeURIComponent(t.label_svg)}" />`
    : '';
}

// The visit's tube labels on a page of their own, one 50 x 25 mm label per tube, for the phone's
// printer (a Bluetooth label printer through the system's print dialog). Needs no network.
function printLabels(v) {
  const w = window.open('', '_blank');
  if (!w) return false;
  const labels = v.tubes
    .map(
      (t) => `<section class="label"><div class="who">${esc(v.patient_name)}</div>
      <div class="what">${esc(v.booking_number)} · ${esc(t.container_label ?? t.container)}</div>${labelImage(t)}<div class="code">${esc(t.barcode)}</div></section>`,
    )
    .join('');
  w.document.write(`<!doctype html><html><head><meta charset="utf-8"><title>Labels ${esc(v.booking_number)}</title>
    <style>@page { size: 50mm 25mm; margin: 0 } body { margin: 0; font: 8pt sans-serif }
    .label { width: 50mm; height: 25mm; box-sizing: border-box; padding: 1.5mm 2mm; page-break-after: always; overflow: hidden }
    .who { font-weight: bold; white-space: nowrap; overflow: hidden; text-overflow: ellipsis } .what { font-size: 7pt }
    .barcode { display: block; width: 46mm; height: 9mm } .code { font: 7pt monospace; text-align: center }</style>
    </head><body>${labels}</body></html>`);
  w.document.close();
  w.focus();
  w.print();
  return true;
}

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
        ? `<div class="row" style="display:grid">${v.tubes.map((t) => `<div class="tube"><span>${esc(t.container_label ?? t.container)}</span><span>${esc(t.barcode)}</span>${labelImage(t)}</div>`).join('')}</div>
      <div class="row"><button class="secondary" data-act="labels">Print labels</button><button data-act="collect">Tubes collected</button></div>`
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

// What happens to the queue next, so the phlebotomist knows whether to wait for a signal.
function syncState(waiting) {
  if (!waiting) return '';
  if (!navigator.onLine) return '<div class="muted" id="sync-state">Sent when the network returns.</div>';
  if (nextTry === null) return '<div class="muted" id="sync-state">Sending…</div>';
  const at = new Date(nextTry).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return `<div class="muted" id="sync-state">The lab could not be reached; trying again at ${esc(at)}.</div>`;
}

async function render() {
  const day = await kvGet('day');
  const ops = await queued();
  const notes = (await kvGet('notes')) ?? {};
  $net.textContent = navigator.onLine ? 'Online' : 'Offline';
  $net.className = navigator.onLine ? 'pill' : 'pill off';
  if (!day) return renderMessage(navigator.onLine ? 'Loading the day…' : 'Offline, and the day was never loaded.');
  const visits = day.visits.map((v) => local(v, ops));
  const typed = typedValues();
  $main.innerHTML = `<div class="card"><div class="row" style="justify-content:space-between;margin:0">
    <span><strong>${visits.length}</strong> visit(s) on ${esc(day.date)} · <span id="queue-count">${ops.length}</span> waiting</span>
    <button class="secondary" data-act="sync" ${ops.length && navigator.onLine ? '' : 'disabled'}>Sync now</button></div>
    ${syncState(ops.length)}</div>
    ${visits.map((v) => visitCard(v, notes[v.id])).join('') || '<div class="card">No visits assigned for today.</div>'}`;
  restoreTyped(typed);
}

// The screen is drawn again whenever the queue or the day changes (a sync finishing, the network
// coming back), often while the phlebotomist is typing a code or a reference: what was typed, and
// where the cursor was, stay as they were.
function typedValues() {
  const out = [];
  for (const el of $main.querySelectorAll('article [data-field]')) {
    if (el.value === el.defaultValue && el !== document.activeElement) continue;
    out.push({
      id: el.closest('article').dataset.id,
      field: el.dataset.field,
      value: el.value,
      focused: el === document.activeElement,
    });
  }
  return out;
}
function restoreTyped(typed) {
  for (const t of typed) {
    const el = $main.querySelector(`article[data-id="${t.id}"] [data-field="${t.field}"]`);
    if (!el) continue;
    el.value = t.value;
    if (t.focused) el.focus();
  }
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

// The fields each action reads, cleared once it is queued.
const USES = { start: ['otp'], pay: ['amount', 'reference'], refuse: ['reason'], fail: ['reason'] };

function cardMessage(card, text) {
  card.querySelector('.card-message')?.remove();
  card.insertAdjacentHTML('beforeend', `<div class="conflict card-message" role="alert">${esc(text)}</div>`);
}

$main.addEventListener('click', async (e) => {
  const btn = e.target.closest('button[data-act]');
  if (!btn) return;
  const act = btn.dataset.act;
  if (act === 'sync') return sync();
  const card = btn.closest('article');
  const id = Number(card.dataset.id);
  if (act === 'labels') {
    const day = await kvGet('day');
    if (!printLabels(day.visits.find((x) => x.id === id)))
      cardMessage(card, 'The labels could not open: allow pop-ups for this app.');
    return;
  }
  const field = (n) => card.querySelector(`[data-field="${n}"]`)?.value.trim() ?? '';
  const day = await kvGet('day');
  const v = local(
    day.visits.find((x) => x.id === id),
    await queued(),
  );
  const base = { op_id: newId(), booking_id: id, at: new Date().toISOString() };
  if (act === 'arrive') await enqueue({ ...base, kind: 'arrive', ...(await position()) });
  if (act === 'start') {
    if (!/^\d{6}$/.test(field('otp'))) return cardMessage(card, 'Enter the 6-digit visit code from the patient’s SMS.');
    await enqueue({ ...base, kind: 'start', otp: field('otp') });
  }
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
  // What was typed for this action is spent: the next draw shows the card's own values again.
  for (const n of USES[act] ?? []) {
    const el = card.querySelector(`input[data-field="${n}"]`);
    if (el) el.value = el.defaultValue;
  }
  return navigator.onLine ? sync() : render();
});

window.addEventListener('online', onOnline);
window.addEventListener('offline', () => void render());
if ('serviceWorker' in navigator) void navigator.serviceWorker.register('/phone/sw.js', { scope: '/phone/' });
void render().then(loadDay).then(sync);
