// The guarded outbound client against a real server on 127.0.0.1: which addresses it refuses (and
// in which spellings), that it connects only to the address it checked, redirects, timeouts and
// the size cap before and after decompression.
import dns from 'node:dns';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sendJson, startEndpointServer, type EndpointServer } from '../testing/endpoint-server.ts';
import { addressRefusal, guardedGet, parseAllowList, type OutboundPolicy } from './outbound.ts';

const policy = (allowed: string, overrides: Partial<OutboundPolicy> = {}): OutboundPolicy => ({
  allowed: parseAllowList(allowed),
  connectTimeoutMs: 2000,
  readTimeoutMs: 1000,
  maxResponseBytes: 50_000,
  maxRedirects: 5,
  ...overrides,
});

describe('addressRefusal', () => {
  const none = parseAllowList('');
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.1.1',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::127.0.0.1',
    '64:ff9b::a00:1',
    '2002:7f00:1::',
  ])('refuses %s without the allow list', (address) => {
    expect(addressRefusal('host', address, none)).toMatch(/OUTBOUND_ALLOWED_HOSTS|metadata/);
  });

  it.each(['93.184.216.34', '2606:4700:4700::1111', '::ffff:93.184.216.34'])('lets the public address %s through', (address) => {
    expect(addressRefusal('host', address, none)).toBeNull();
  });

  it('admits special ranges by host name, address or CIDR, also IPv4-mapped', () => {
    const allowed = parseAllowList('intranet.example, 10.0.0.0/8, ::1, 127.0.0.1');
    expect(addressRefusal('intranet.example', '192.168.5.5', allowed)).toBeNull();
    expect(addressRefusal('x', '10.200.1.1', allowed)).toBeNull();
    expect(addressRefusal('x', '::ffff:10.200.1.1', allowed)).toBeNull();
    expect(addressRefusal('x', '::1', allowed)).toBeNull();
    expect(addressRefusal('x', '127.0.0.2', allowed)).toMatch(/^x is on the Stockwise server's own machine \(127\.0\.0\.2\)\./);
    expect(addressRefusal('x', '192.168.5.5', allowed)).toMatch(/^x is inside your network \(192\.168\.5\.5\)\./);
  });

  it("says in a shop's words where a refused address is, and what the person who runs the server can do", () => {
    expect(addressRefusal('till.local', '192.168.1.20', none)).toBe(
      'till.local is inside your network (192.168.1.20). Stockwise only fetches from addresses on the internet unless the person who runs the Stockwise server allows this one. For them: add till.local to the server setting OUTBOUND_ALLOWED_HOSTS (for example OUTBOUND_ALLOWED_HOSTS=till.local) and restart the server.',
    );
    expect(addressRefusal('localhost', '::1', none)).toMatch(/^localhost is on the Stockwise server's own machine \(::1\)\. /);
    expect(addressRefusal('224.0.0.1', '224.0.0.1', none)).toMatch(/^This address is not an ordinary internet address \(224\.0\.0\.1\)\. /);
  });

  it('refuses metadata addresses even when the allow list covers them', () => {
    const allowed = parseAllowList('169.254.0.0/16, fd00::/8, 100.64.0.0/10, 0.0.0.0/0, ::/0');
    for (const address of ['169.254.169.254', '::ffff:169.254.169.254', 'fd00:ec2::254', '100.100.100.200']) {
      expect(addressRefusal('x', address, allowed)).toMatch(/metadata/);
    }
  });
});

describe('guardedGet', () => {
  let source: EndpointServer;
  beforeAll(async () => {
    source = await startEndpointServer();
    source.route('/ok', (_request, response) => sendJson(response, [{ ok: true }]));
  });
  afterAll(() => source.close());

  it('refuses loopback in every spelling unless allowed, before connecting', async () => {
    const before = source.requests.length;
    for (const host of ['127.0.0.1', '2130706433', '0x7f.1', '0x7f000001', '0177.0.0.1', '127.1', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', 'localhost']) {
      await expect(guardedGet(`http://${host}:${source.port}/ok`, { policy: policy('') }), host).rejects.toThrow(/OUTBOUND_ALLOWED_HOSTS/);
    }
    expect(source.requests.length).toBe(before);
    const answer = await guardedGet(`http://2130706433:${source.port}/ok`, { policy: policy('127.0.0.1') });
    expect(JSON.parse(answer.body.toString())).toEqual([{ ok: true }]);
  });

  it('refuses other schemes and the metadata host names', async () => {
    await expect(guardedGet('file:///etc/passwd', { policy: policy('') })).rejects.toThrow(/Only http and https/);
    await expect(guardedGet('ftp://127.0.0.1/', { policy: policy('127.0.0.1') })).rejects.toThrow(/Only http and https/);
    await expect(guardedGet('http://metadata.google.internal/computeMetadata/v1/', { policy: policy('metadata.google.internal') })).rejects.toThrow(/metadata/);
    await expect(guardedGet('http://169.254.169.254/latest/meta-data/', { policy: policy('169.254.0.0/16') })).rejects.toThrow(/metadata/);
  });

  it('connects only to the address it checked, whatever a later DNS answer says', async () => {
    // The name first resolves to the allowed loopback address, then (rebinding) to another one.
    const checked = vi.spyOn(dns.promises, 'lookup').mockResolvedValue([{ address: '127.0.0.1', family: 4 }] as never);
    const rebound = vi.spyOn(dns, 'lookup').mockImplementation(((_host: string, _options: unknown, callback: (error: Error | null, address: string, family: number) => void) => callback(null, '10.9.9.9', 4)) as never);
    try {
      const answer = await guardedGet(`http://rebind.test:${source.port}/ok`, { policy: policy('127.0.0.1') });
      expect(answer.status).toBe(200);
      expect(checked).toHaveBeenCalledTimes(1);
      expect(rebound).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('checks every address a name resolves to', async () => {
    vi.spyOn(dns.promises, 'lookup').mockResolvedValue([
      { address: '127.0.0.1', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ] as never);
    try {
      await expect(guardedGet(`http://two.test:${source.port}/ok`, { policy: policy('127.0.0.1') })).rejects.toThrow(/10\.0\.0\.7/);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('re-checks every redirect, refuses a loop after five, and never redirects to metadata', async () => {
    source.route('/loop-a', (_request, response) => response.writeHead(302, { location: '/loop-b' }).end());
    source.route('/loop-b', (_request, response) => response.writeHead(302, { location: '/loop-a' }).end());
    source.route('/to-metadata', (_request, response) => response.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end());
    source.route('/to-other-loopback', (_request, response) => response.writeHead(307, { location: `http://127.0.0.2:${source.port}/ok` }).end());
    source.route('/hop', (_request, response) => response.writeHead(302, { location: '/ok' }).end());
    const allowed = policy('127.0.0.1');
    await expect(guardedGet(`${source.origin}/loop-a`, { policy: allowed })).rejects.toThrow(/Too many redirects/);
    expect(source.requestsTo('/loop-a').length + source.requestsTo('/loop-b').length).toBe(6);
    await expect(guardedGet(`${source.origin}/to-metadata`, { policy: allowed })).rejects.toThrow(/metadata/);
    await expect(guardedGet(`${source.origin}/to-other-loopback`, { policy: allowed })).rejects.toThrow(/127\.0\.0\.2.*OUTBOUND_ALLOWED_HOSTS/);
    expect((await guardedGet(`${source.origin}/hop`, { policy: allowed })).status).toBe(200);
  });

  it('gives up on a slow answer (read timeout) as a transient failure', async () => {
    source.route('/slow', async (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      response.end(']');
    });
    const failure = await guardedGet(`${source.origin}/slow`, { policy: policy('127.0.0.1', { readTimeoutMs: 300 }) }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ transient: true, message: expect.stringMatching(/within 0.3 seconds/) });
  });

  it('caps the body as sent and after decompression', async () => {
    const big = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ i })));
    source.route('/big', (_request, response) => sendJson(response, JSON.parse(big)));
    source.route('/bomb', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(gzipSync(Buffer.from(`[${'0,'.repeat(200_000)}0]`)));
    });
    source.route('/small-gzip', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(gzipSync(Buffer.from('[{"a":1}]')));
    });
    const allowed = policy('127.0.0.1');
    await expect(guardedGet(`${source.origin}/big`, { policy: allowed })).rejects.toThrow(/larger than 50000 bytes/);
    const bomb = gzipSync(Buffer.from(`[${'0,'.repeat(200_000)}0]`));
    expect(bomb.length).toBeLessThan(50_000);
    await expect(guardedGet(`${source.origin}/bomb`, { policy: allowed })).rejects.toThrow(/larger than 50000 bytes/);
    expect(JSON.parse((await guardedGet(`${source.origin}/small-gzip`, { policy: allowed })).body.toString())).toEqual([{ a: 1 }]);
  });

  it('sends headers to the configured origin only, not to another after a redirect', async () => {
    const other = await startEndpointServer();
    try {
      other.route('/ok', (_request, response) => sendJson(response, []));
      source.route('/elsewhere', (_request, response) => response.writeHead(302, { location: `http://127.0.0.1:${other.port}/ok` }).end());
      await guardedGet(`${source.origin}/elsewhere`, { headers: { authorization: 'Bearer s3cret' }, policy: policy('127.0.0.1') });
      expect(source.requestsTo('/elsewhere').at(-1)?.headers.authorization).toBe('Bearer s3cret');
      expect(other.requestsTo('/ok')[0]?.headers.authorization).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});
