// A real HTTP server on 127.0.0.1 that plays an integration's data source in tests and benchmarks:
// each test gives it handlers by path, and it records every request (when, what, which headers).
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type RecordedRequest = { at: number; path: string; url: URL; headers: http.IncomingHttpHeaders };
export type EndpointHandler = (request: RecordedRequest, response: http.ServerResponse) => unknown;

export type EndpointServer = {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  requests: RecordedRequest[];
  /** Answers requests to `path` (without the query string) with `handler` from now on. */
  route(path: string, handler: EndpointHandler): void;
  requestsTo(path: string): RecordedRequest[];
  close(): Promise<void>;
};

export const sendJson = (response: http.ServerResponse, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(200, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
};

export async function startEndpointServer(): Promise<EndpointServer> {
  const routes = new Map<string, EndpointHandler>();
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((incoming, response) => {
    const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
    const recorded = { at: Date.now(), path: url.pathname, url, headers: incoming.headers };
    requests.push(recorded);
    const handler = routes.get(url.pathname);
    if (!handler) {
      response.writeHead(404).end('{}');
      return;
    }
    Promise.resolve(handler(recorded, response)).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(error));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    route: (path, handler) => void routes.set(path, handler),
    requestsTo: (path) => requests.filter((r) => r.path === path),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
