// The one guarded HTTP client for requests the server makes to addresses users typed (integration
// endpoints), after OWASP's SSRF prevention rules: http and https only; the host is resolved and
// EVERY address checked before connecting, and the socket connects only to those checked addresses
// (a lookup that answers from the check, so a second DNS answer cannot swap in another address);
// private, loopback, link-local, unique-local, multicast, unspecified and other special ranges are
// refused unless OUTBOUND_ALLOWED_HOSTS admits them; cloud metadata addresses are refused always;
// every redirect is checked again, at most five; connect and read timeouts; a size cap on the
// body as sent and again after decompression (docs/security.md).
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import zlib from 'node:zlib';
import ipaddr from 'ipaddr.js';

export type OutboundPolicy = {
  /** Hosts, addresses and CIDRs whose special-range addresses may still be reached (never metadata). */
  allowed: OutboundAllowList;
  connectTimeoutMs: number;
  /** From the connection until the whole body has arrived. */
  readTimeoutMs: number;
  /** Largest body, counted as sent and again after decompression. */
  maxResponseBytes: number;
  maxRedirects: number;
};

export type OutboundResponse = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; url: URL };

/** Why a request was not made or not finished. `transient` failures are worth another try. */
export class OutboundError extends Error {
  readonly transient: boolean;
  readonly status: number | null;
  constructor(message: string, options: { transient: boolean; status?: number | null; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.transient = options.transient;
    this.status = options.status ?? null;
  }
}

/** A request the SSRF rules refuse: never retried, never sent. */
class OutboundRefusal extends OutboundError {}
export const refusal = (message: string) => new OutboundRefusal(message, { transient: false });

// 169.254.169.254: AWS, GCP, Azure, OpenStack, DigitalOcean; fd00:ec2::254: AWS over IPv6;
// 100.100.100.200: Alibaba Cloud. The names resolve to them inside those clouds.
const METADATA_ADDRESSES = ['169.254.169.254', 'fd00:ec2::254', '100.100.100.200'].map((text) => ipaddr.parse(text).toNormalizedString());
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata.azure.internal', 'instance-data', 'instance-data.ec2.internal']);

export type OutboundAllowList = { hosts: Set<string>; ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] };

/** OUTBOUND_ALLOWED_HOSTS: comma-separated host names, addresses and CIDRs (`10.0.0.0/8`, `::1`). */
export function parseAllowList(text: string): OutboundAllowList {
  const allowed: OutboundAllowList = { hosts: new Set(), ranges: [] };
  for (const entry of text.split(',').map((part) => part.trim().toLowerCase()).filter(Boolean)) {
    const bare = entry.replace(/^\[(.*)\]$/, '$1');
    if (bare.includes('/')) {
      const [address, bits] = ipaddr.parseCIDR(bare);
      allowed.ranges.push([canonical(address), address.kind() === 'ipv6' && canonical(address).kind() === 'ipv4' ? bits - 96 : bits]);
    } else if (ipaddr.isValid(bare)) {
      const address = canonical(ipaddr.parse(bare));
      allowed.ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else {
      allowed.hosts.add(bare.replace(/\.$/, ''));
    }
  }
  return allowed;
}

/** IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) IPv6 addresses as the IPv4 they carry. */
function canonical(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (address.kind() === 'ipv4') return address;
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  const parts = v6.parts;
  if (parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || (parts[7] ?? 0) > 1)) return v6.toIPv4Address();
  return v6;
}

const inRanges = (address: ipaddr.IPv4 | ipaddr.IPv6, ranges: OutboundAllowList['ranges']) =>
  ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base as never, bits));

/**
 * Null when `address` may be connected to for `host`, else why not. Only ordinary public unicast
 * addresses pass on their own; everything else (private, loopback, link-local, unique-local,
 * multicast, unspecified, carrier-grade NAT, documentation, 6to4/Teredo/NAT64 tunnels that can
 * carry any IPv4 address) needs the allow list. Metadata addresses are refused even then.
 */
export function addressRefusal(host: string, addressText: string, allowed: OutboundAllowList): string | null {
  if (!ipaddr.isValid(addressText)) return `'${addressText}' is not an IP address.`;
  const address = canonical(ipaddr.parse(addressText));
  if (METADATA_ADDRESSES.includes(address.toNormalizedString())) return `${host} is a cloud metadata address (${address.toString()}), which is never reached.`;
  const range = address.range();
  if (range === 'unicast') return null;
  if (allowed.hosts.has(host) || inRanges(address, allowed.ranges)) return null;
  const shown = address.toString();
  const where = RANGE_WORDS[range] ?? 'not an ordinary internet address';
  const what = host === shown ? `This address is ${where} (${shown}).` : `${host} is ${where} (${shown}).`;
  return `${what} Stockwise only fetches from addresses on the internet unless the person who runs the Stockwise server allows this one. For them: add ${host} to the server setting OUTBOUND_ALLOWED_HOSTS (for example OUTBOUND_ALLOWED_HOSTS=${host}) and restart the server.`;
}

/** A wait as people say it: "30 seconds", "0.5 seconds", "1 second". */
const inSeconds = (ms: number) => `${ms / 1000} ${ms === 1000 ? 'second' : 'seconds'}`;

/** Where an address that needs the allow list is, in a shop's words (ipaddr's range names). */
const RANGE_WORDS: Partial<Record<string, string>> = {
  loopback: "on the Stockwise server's own machine",
  private: 'inside your network',
  linkLocal: 'inside your network',
  uniqueLocal: 'inside your network',
  carrierGradeNat: "inside your internet provider's network",
  unspecified: 'not a real address',
};

/** The URL's host name as checks compare it: lower case, no IPv6 brackets, no trailing dot. */
const hostOf = (url: URL) => url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');

/** Every address the host resolves to, each checked; throws the first refusal. */
async function checkedAddresses(url: URL, allowed: OutboundAllowList): Promise<{ address: string; family: number }[]> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refusal(`Only http and https addresses can be fetched, not ${url.protocol}`);
  const host = hostOf(url);
  if (METADATA_HOSTS.has(host)) throw refusal(`${host} is a cloud metadata address, which is never reached.`);
  let addresses: { address: string; family: number }[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
    } catch (error) {
      const code = (error as { code?: string }).code;
      throw new OutboundError(`The host ${host} could not be resolved (${code ?? 'DNS error'}).`, { transient: code === 'EAI_AGAIN', cause: error });
    }
  }
  if (!addresses.length) throw new OutboundError(`The host ${host} has no address.`, { transient: false });
  for (const { address } of addresses) {
    const refused = addressRefusal(host, address, allowed);
    if (refused) throw refusal(refused);
  }
  return addresses;
}

/**
 * Why the SSRF rules will refuse this address, as far as can be told when it is typed (an
 * integration's endpoint at save): null when it may be fetched, and also when its name does not
 * resolve now — the run says so then, and a name may well resolve later.
 */
export async function addressProblem(url: URL, allowed: OutboundAllowList): Promise<string | null> {
  try {
    await checkedAddresses(url, allowed);
    return null;
  } catch (error) {
    return error instanceof OutboundRefusal ? error.message : null;
  }
}

/** A lookup that answers only with the addresses already checked: the connection cannot go elsewhere. */
function pinnedLookup(addresses: { address: string; family: number }[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = addresses.filter((a) => !options.family || a.family === options.family);
    const list = wanted.length ? wanted : addresses;
    if (options.all) (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, list);
    else callback(null, list[0]?.address ?? '', list[0]?.family ?? 4);
  };
}

const TRANSIENT_SOCKET_ERRORS = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNABORTED', 'UND_ERR_SOCKET']);

function decoderFor(encoding: string | undefined): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

type OneRequest = { url: URL; headers: Record<string, string>; addresses: { address: string; family: number }[]; policy: OutboundPolicy; signal?: AbortSignal };

/** One GET to checked addresses; a redirect comes back as it is (status and Location). */
function requestOnce({ url, headers, addresses, policy, signal }: OneRequest): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    const transport = url.protocol === 'https:' ? https : http;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const finish = (error: Error | null, response?: OutboundResponse) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (error) {
        request.destroy();
        reject(error);
      } else if (response) resolve(response);
    };
    const onAbort = () => finish(new OutboundError('The request was cancelled.', { transient: false }));
    const request = transport.request(url, {
      method: 'GET',
      headers: { 'accept-encoding': 'gzip, deflate, br', accept: 'application/json', ...headers },
      lookup: pinnedLookup(addresses),
      // No pooled sockets: every request resolves, checks and connects afresh.
      agent: false,
    });
    signal?.addEventListener('abort', onAbort);
    timers.push(setTimeout(() => finish(new OutboundError(`No connection to ${url.host} within ${inSeconds(policy.connectTimeoutMs)}.`, { transient: true })), policy.connectTimeoutMs));
    request.once('socket', (socket: Socket) => {
      const connected = () => {
        clearTimeout(timers.shift());
        timers.push(setTimeout(() => finish(new OutboundError(`${url.host} did not send its whole answer within ${inSeconds(policy.readTimeoutMs)}.`, { transient: true })), policy.readTimeoutMs));
      };
      if (socket.connecting) socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', connected);
      else connected();
    });
    request.once('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? '';
      finish(new OutboundError(`The request to ${url.host} failed: ${error.message}`, { transient: TRANSIENT_SOCKET_ERRORS.has(code), cause: error }));
    });
    request.once('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        finish(null, { status, headers: response.headers, body: Buffer.alloc(0), url });
        return;
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > policy.maxResponseBytes) {
        finish(tooLarge(url, policy));
        return;
      }
      const decoder = decoderFor(response.headers['content-encoding']);
      const chunks: Buffer[] = [];
      let wireBytes = 0;
      let bodyBytes = 0;
      response.on('data', (chunk: Buffer) => {
        wireBytes += chunk.length;
        if (wireBytes > policy.maxResponseBytes) finish(tooLarge(url, policy));
      });
      response.once('error', (error) => finish(new OutboundError(`The answer from ${url.host} broke off: ${error.message}`, { transient: true, cause: error })));
      const body = decoder ? response.pipe(decoder) : response;
      if (decoder) decoder.once('error', (error) => finish(new OutboundError(`The answer from ${url.host} could not be decompressed: ${error.message}`, { transient: false, cause: error })));
      body.on('data', (chunk: Buffer) => {
        bodyBytes += chunk.length;
        // Counted after decompression too: a small gzip body can unpack to gigabytes.
        if (bodyBytes > policy.maxResponseBytes) {
          finish(tooLarge(url, policy));
          return;
        }
        chunks.push(chunk);
      });
      body.once('end', () => finish(null, { status, headers: response.headers, body: Buffer.concat(chunks), url }));
    });
    request.end();
  });
}

const tooLarge = (url: URL, policy: OutboundPolicy) => new OutboundError(`The answer from ${url.host} is larger than ${policy.maxResponseBytes} bytes.`, { transient: false });

/**
 * GET `target` through the SSRF rules, following redirects (each checked again). Headers are not
 * carried to another origin on a redirect (an auth header goes only where it was configured for).
 */
export async function guardedGet(target: string, options: { headers?: Record<string, string>; policy: OutboundPolicy; signal?: AbortSignal }): Promise<OutboundResponse> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw refusal(`'${target}' is not a valid address.`);
  }
  const origin = url.origin;
  for (let hop = 0; ; hop += 1) {
    const addresses = await checkedAddresses(url, options.policy.allowed);
    const headers = url.origin === origin ? (options.headers ?? {}) : {};
    const response = await requestOnce({ url, headers, addresses, policy: options.policy, ...(options.signal ? { signal: options.signal } : {}) });
    const location = response.status >= 300 && response.status < 400 ? response.headers.location : undefined;
    if (!location) return response;
    if (hop >= options.policy.maxRedirects) throw refusal(`Too many redirects (more than ${options.policy.maxRedirects}) from ${target}.`);
    try {
      url = new URL(location, url);
    } catch {
      throw refusal(`The redirect to '${location}' is not a valid address.`);
    }
  }
}
