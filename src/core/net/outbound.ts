import dns from 'node:dns';
import net from 'node:net';

/**
 * Which addresses a lab's outbound connections may reach. The targets (SMS gateway, mail server,
 * report receivers, analyzers the server dials) are typed in by a lab's admin, not by the server's
 * operator, so without a rule they reach this machine's own services (localhost:22, a database),
 * the cloud's metadata service (169.254.169.254) and the hospital's internal network. The check is
 * made on every address a name resolves to, at connect time, so DNS cannot get around it.
 *
 * - `internet`: a service on the internet (SMS gateway): public addresses only.
 * - `lan`: a machine the clinic may keep on its own network (analyzer, mail relay, the hospital's
 *   interface engine): public and private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7),
 *   never loopback, link-local, unspecified, multicast or reserved.
 * The server's operator may allow every address (`lims serve --allow-private-outbound`).
 */

export type OutboundKind = 'internet' | 'lan';
export type AddressClass = 'public' | 'private' | 'loopback' | 'link-local' | 'unspecified' | 'multicast' | 'reserved';

export interface OutboundPolicy {
  kind: OutboundKind;
  /** The operator's allowance (`--allow-private-outbound`): every address may be reached. */
  allowPrivate: boolean;
}

/** A connection refused by the policy; its message is short and fixed, safe to show and store. */
export class OutboundRefused extends Error {
  readonly code = 'EADDRNOTALLOWED';
  constructor(readonly addressClass: AddressClass) {
    super(`address not allowed: ${addressClass}`);
  }
}

const inV4 = (n: number, base: number, bits: number) => bits === 0 || n >>> (32 - bits) === base >>> (32 - bits);

/** An IPv4 address as a 32-bit number, or null. */
function v4Number(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    n = n * 256 + Number(p);
  }
  return n >>> 0;
}

function classifyV4(n: number): AddressClass {
  const v = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
  if (n === 0) return 'unspecified';
  if (inV4(n, v(127, 0, 0, 0), 8)) return 'loopback';
  if (inV4(n, v(169, 254, 0, 0), 16)) return 'link-local';
  if (inV4(n, v(224, 0, 0, 0), 4)) return 'multicast';
  if (inV4(n, v(10, 0, 0, 0), 8) || inV4(n, v(172, 16, 0, 0), 12) || inV4(n, v(192, 168, 0, 0), 16)) return 'private';
  // Shared address space of carrier-grade NAT: not on the internet, but a clinic's ISP may hand it out.
  if (inV4(n, v(100, 64, 0, 0), 10)) return 'private';
  const reserved: [number, number][] = [
    [v(0, 0, 0, 0), 8],
    [v(192, 0, 0, 0), 24],
    [v(192, 0, 2, 0), 24],
    [v(198, 18, 0, 0), 15],
    [v(198, 51, 100, 0), 24],
    [v(203, 0, 113, 0), 24],
    [v(240, 0, 0, 0), 4],
  ];
  if (reserved.some(([base, bits]) => inV4(n, base, bits))) return 'reserved';
  return 'public';
}

/** An IPv6 address as 8 numbers of 16 bits, or null. */
function v6Words(ip: string): number[] | null {
  let s = ip.replace(/%.*$/, '');
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (tail) {
    const n = v4Number(tail[1]!);
    if (n === null) return null;
    s = `${s.slice(0, -tail[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const words = (h: string) =>
    h === '' ? [] : h.split(':').map((w) => (/^[0-9a-f]{1,4}$/i.test(w) ? parseInt(w, 16) : NaN));
  const head = words(halves[0]!);
  const rest = halves.length === 2 ? words(halves[1]!) : [];
  const fill = 8 - head.length - rest.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return null;
  const all = [...head, ...Array<number>(halves.length === 2 ? fill : 0).fill(0), ...rest];
  return all.some(Number.isNaN) ? null : all;
}

function classifyV6(w: number[]): AddressClass {
  const zeroTo = (i: number) => w.slice(0, i).every((x) => x === 0);
  if (zeroTo(8)) return 'unspecified';
  if (zeroTo(7) && w[7] === 1) return 'loopback';
  const embedded = () => classifyV4(((w[6]! << 16) | w[7]!) >>> 0);
  if (zeroTo(5) && w[5] === 0xffff) return embedded(); // IPv4-mapped ::ffff:a.b.c.d
  if (w[0] === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((x) => x === 0)) return embedded(); // NAT64
  if (w[0] === 0x2002) return classifyV4(((w[1]! << 16) | w[2]!) >>> 0); // 6to4 embeds the IPv4 address
  if ((w[0]! & 0xff00) === 0xff00) return 'multicast';
  if ((w[0]! & 0xffc0) === 0xfe80) return 'link-local';
  if ((w[0]! & 0xfe00) === 0xfc00) return 'private';
  if (w[0] === 0x2001 && (w[1] === 0xdb8 || w[1] === 0)) return 'reserved'; // documentation, Teredo
  if ((w[0]! & 0xe000) === 0x2000) return 'public';
  return 'reserved'; // IPv4-compatible, site-local and every block not handed out
}

/** The class of an IP address (IPv4, IPv6, IPv4-mapped IPv6); `reserved` for anything not an address. */
export function classifyAddress(ip: string): AddressClass {
  const bare = ip.replace(/^\[|\]$/g, '');
  const n = v4Number(bare);
  if (n !== null) return classifyV4(n);
  const w = net.isIPv6(bare.replace(/%.*$/, '')) ? v6Words(bare) : null;
  return w ? classifyV6(w) : 'reserved';
}

/** The address's class when the policy refuses it, else null. */
export function refusedClass(ip: string, policy: OutboundPolicy): AddressClass | null {
  if (policy.allowPrivate) return null;
  const c = classifyAddress(ip);
  if (c === 'public' || (c === 'private' && policy.kind === 'lan')) return null;
  return c;
}

/**
 * The IPv4 address a host name stands for in the forms inet_aton also takes (2130706433, 0x7f.1,
 * 0177.0.0.1), dotted; null when it is not one. A resolver would turn these into the address.
 */
export function looseIpv4(host: string): string | null {
  const parts = host.split('.');
  if (parts.length < 1 || parts.length > 4) return null;
  const nums: number[] = [];
  for (const p of parts) {
    let v: number;
    if (/^0x[0-9a-f]*$/i.test(p)) v = p.length === 2 ? 0 : parseInt(p.slice(2), 16);
    else if (/^0[0-7]*$/.test(p)) v = parseInt(p, 8);
    else if (/^[1-9]\d*$/.test(p)) v = Number(p);
    else return null;
    nums.push(v);
  }
  const last = nums.pop()!;
  if (nums.some((x) => x > 255) || last >= 256 ** (4 - nums.length)) return null;
  let n = last;
  nums.forEach((x, i) => (n += x * 256 ** (3 - i)));
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/**
 * What a host as typed in a setting is refused as, before any lookup: a literal address in any
 * form, or `localhost` and its subdomains. Names are checked again when they are resolved.
 */
export function hostRefusal(host: string, policy: OutboundPolicy): AddressClass | null {
  const h = host.trim().toLowerCase().replace(/\.$/, '');
  if (policy.allowPrivate) return null;
  if (h === 'localhost' || h.endsWith('.localhost')) return 'loopback';
  const bare = h.replace(/^\[|\]$/g, '');
  if (net.isIPv6(bare.replace(/%.*$/, ''))) return refusedClass(bare, policy);
  const v4 = looseIpv4(h);
  return v4 ? refusedClass(v4, policy) : null;
}

/** The host of a URL as typed in a setting (template placeholders allowed), or null if none. */
export function urlHost(url: string): string | null {
  try {
    return new URL(url.replaceAll(/\{[a-z]+\}/g, 'x')).hostname || null;
  } catch {
    return null;
  }
}

type LookupAll = (
  host: string,
  opts: dns.LookupAllOptions,
  cb: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for net, tls, http and https sockets: resolves the name and refuses it (an
 * OutboundRefused error) when any of its addresses is refused. `resolve` is dns.lookup unless a
 * test gives another.
 */
export function checkedLookup(
  policy: OutboundPolicy,
  resolve: LookupAll = dns.lookup as LookupAll,
): net.LookupFunction {
  return ((host: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    const opts = typeof options === 'object' && options ? options : {};
    resolve(host, { ...opts, all: true }, (err, addresses) => {
      if (err) return callback(err);
      const refused = addresses.map((a) => refusedClass(a.address, policy)).find((c) => c !== null);
      if (refused) return callback(new OutboundRefused(refused));
      if (!addresses.length) return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }));
      if (opts.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  }) as net.LookupFunction;
}

/** The socket options that make a connection to `host` obey the policy (a literal address is checked here). */
export function guardedTarget(
  host: string,
  policy: OutboundPolicy,
  resolve?: LookupAll,
): { lookup: net.LookupFunction } {
  const bare = host.replace(/^\[|\]$/g, '');
  if (net.isIP(bare)) {
    const c = refusedClass(bare, policy);
    if (c) throw new OutboundRefused(c);
  }
  return { lookup: checkedLookup(policy, resolve) };
}

/** Resolves `host` and answers the first allowed address, for clients that take an address (SMTP). */
export function resolveChecked(host: string, policy: OutboundPolicy, resolve?: LookupAll): Promise<string> {
  const { lookup } = guardedTarget(host, policy, resolve);
  const bare = host.replace(/^\[|\]$/g, '');
  if (net.isIP(bare)) return Promise.resolve(bare);
  return new Promise((ok, fail) =>
    lookup(host, {}, (err: Error | null, address: string | dns.LookupAddress[]) =>
      err ? fail(err) : ok(typeof address === 'string' ? address : address[0]!.address),
    ),
  );
}

/** The short, fixed words for a refused address, for the field under the setting. */
export function refusalMessage(c: AddressClass, policy: OutboundPolicy): string {
  const what =
    policy.kind === 'internet' ? 'an address on the internet' : 'an address on the internet or the clinic network';
  return `address not allowed: ${c}. Use ${what}; only the server's operator can allow others (lims serve --allow-private-outbound)`;
}
