import { describe, expect, it } from 'vitest';
import net from 'node:net';
import type dns from 'node:dns';
import {
  classifyAddress,
  guardedTarget,
  hostRefusal,
  looseIpv4,
  OutboundRefused,
  refusedClass,
  resolveChecked,
  urlHost,
} from './outbound.js';

const internet = { kind: 'internet', allowPrivate: false } as const;
const lan = { kind: 'lan', allowPrivate: false } as const;
const operatorAllows = { kind: 'internet', allowPrivate: true } as const;

/** A resolver that answers the given addresses for every name. */
const stub =
  (...addresses: string[]) =>
  (
    _host: string,
    _opts: dns.LookupAllOptions,
    cb: (err: NodeJS.ErrnoException | null, a: dns.LookupAddress[]) => void,
  ) =>
    cb(
      null,
      addresses.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 })),
    );

describe('the class of an address', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.20', 'private'],
    ['100.64.0.1', 'private'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'reserved'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fd12:3456::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2606:4700::1111', 'public'],
    ['2001:db8::1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:7f00:1::', 'loopback'],
    ['[::1]', 'loopback'],
    ['not an address', 'reserved'],
  ])('%s is %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });
});

describe('what each kind of target may reach', () => {
  it('an internet service only public addresses; a LAN machine private ones too; never loopback', () => {
    expect(refusedClass('8.8.8.8', internet)).toBeNull();
    expect(refusedClass('192.168.1.5', internet)).toBe('private');
    expect(refusedClass('192.168.1.5', lan)).toBeNull();
    expect(refusedClass('127.0.0.1', lan)).toBe('loopback');
    expect(refusedClass('169.254.169.254', lan)).toBe('link-local');
    expect(refusedClass('127.0.0.1', operatorAllows)).toBeNull();
  });
});

describe('a host as typed in a setting', () => {
  it.each([
    ['2130706433', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['169.254.43518', '169.254.169.254'],
    ['10.0.0.1', '10.0.0.1'],
  ])('%s is the IPv4 address %s', (host, ip) => {
    expect(looseIpv4(host)).toBe(ip);
  });

  it('names are not addresses', () => {
    expect(looseIpv4('sms.example.com')).toBeNull();
    expect(looseIpv4('1.2.3.4.5')).toBeNull();
    expect(looseIpv4('256.1.1.1')).toBeNull();
  });

  it('refuses literal forbidden addresses in every form, and localhost', () => {
    expect(hostRefusal('localhost', lan)).toBe('loopback');
    expect(hostRefusal('LOCALHOST.', lan)).toBe('loopback');
    expect(hostRefusal('db.localhost', lan)).toBe('loopback');
    expect(hostRefusal('2130706433', lan)).toBe('loopback');
    expect(hostRefusal('0x7f.1', lan)).toBe('loopback');
    expect(hostRefusal('[::1]', lan)).toBe('loopback');
    expect(hostRefusal('::ffff:127.0.0.1', lan)).toBe('loopback');
    expect(hostRefusal('169.254.169.254', lan)).toBe('link-local');
    expect(hostRefusal('10.0.0.5', internet)).toBe('private');
    expect(hostRefusal('10.0.0.5', lan)).toBeNull();
    expect(hostRefusal('smtp.example.com', lan)).toBeNull();
    expect(hostRefusal('localhost', operatorAllows)).toBeNull();
  });

  it('finds the host of a URL template, WHATWG forms normalised', () => {
    expect(urlHost('http://2130706433:8080/send?to={to}')).toBe('127.0.0.1');
    expect(urlHost('http://0x7f.1/send')).toBe('127.0.0.1');
    expect(urlHost('https://[::1]/x')).toBe('[::1]');
    expect(urlHost('https://api.sms.example/{key}/send')).toBe('api.sms.example');
    expect(urlHost('not a url')).toBeNull();
  });
});

describe('the check at connect time', () => {
  it('refuses a name that resolves to loopback, or to any forbidden address among others', async () => {
    await expect(resolveChecked('innocent.example', lan, stub('127.0.0.1'))).rejects.toThrow(
      'address not allowed: loopback',
    );
    await expect(resolveChecked('innocent.example', lan, stub('8.8.8.8', '169.254.169.254'))).rejects.toBeInstanceOf(
      OutboundRefused,
    );
    await expect(resolveChecked('innocent.example', internet, stub('::ffff:10.0.0.1'))).rejects.toThrow(
      'address not allowed: private',
    );
    expect(await resolveChecked('gateway.example', internet, stub('93.184.216.34'))).toBe('93.184.216.34');
    expect(await resolveChecked('relay.clinic.lan', lan, stub('192.168.1.25'))).toBe('192.168.1.25');
  });

  it('refuses a literal address before any socket', () => {
    expect(() => guardedTarget('127.0.0.1', lan)).toThrow('address not allowed: loopback');
    expect(() => guardedTarget('[fe80::1]', lan)).toThrow('address not allowed: link-local');
    expect(() => guardedTarget('192.168.1.9', lan)).not.toThrow();
  });

  it('a socket dialling a name that resolves to loopback never connects', async () => {
    const server = net.createServer((s) => s.end('SSH-2.0-OpenSSH_9.6\r\n'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const { lookup } = guardedTarget('innocent.example', internet, stub('127.0.0.1'));
      const outcome = await new Promise<string>((resolve) => {
        const s = net.connect({ host: 'innocent.example', port, lookup });
        s.on('connect', () => resolve('connected'));
        s.on('error', (err) => resolve(err.message));
      });
      expect(outcome).toBe('address not allowed: loopback');
    } finally {
      server.close();
    }
  });
});
