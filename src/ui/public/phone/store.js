// The phone app's storage and its one way to the lab: IndexedDB ('kv' keeps the day and the last
// answers, 'queue' the operations not yet sent) and a JSON request that gives up after 30 s.
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
export const kvGet = (k) => tx('kv', 'readonly', (s) => s.get(k));
export const kvSet = (k, v) => tx('kv', 'readwrite', (s) => s.put(v, k));
export const queued = () => tx('queue', 'readonly', (s) => s.getAll());
export const enqueue = (op) => tx('queue', 'readwrite', (s) => s.put({ ...op, queued_at: Date.now() }));
export const dequeue = (ids) => tx('queue', 'readwrite', (s) => ids.forEach((id) => s.delete(id)));

export const newId = () => `${Date.now().toString(36)}-${crypto.getRandomValues(new Uint32Array(2)).join('-')}`;
export const esc = (t) => String(t ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// A request on a weak signal can hang for minutes without failing; given up after 30 s, it is
// tried again like any other failure instead of holding the one sync in flight.
const REQUEST_TIMEOUT = 30_000;

export async function api(method, url, body) {
  const res = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok)
    throw Object.assign(new Error(json.message ?? `HTTP ${res.status}`), { status: res.status, details: json.details });
  return json;
}
