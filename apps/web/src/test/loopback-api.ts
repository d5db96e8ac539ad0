// The app's API client pointed at a loopback server playing the routes a test needs.
import { File as NodeFile } from 'node:buffer';
import { api } from '../api/http.ts';
import { startLoopback, type Handler, type Loopback } from './loopback.ts';

export async function startLoopbackApi(handler: Handler): Promise<Loopback> {
  const loopback = await startLoopback(handler);
  api.defaults.baseURL = `${loopback.baseUrl}/api`;
  // Node's HTTP client: jsdom's XMLHttpRequest would hold the loopback server to CORS.
  api.defaults.adapter = 'http';
  return loopback;
}

/**
 * A multipart body (a file's preview) encoded whole before it is sent: axios's Node adapter streams
 * jsdom's FormData parts as another realm's arrays, which Node's HTTP client refuses. The form is
 * rebuilt as Node's own (its file's bytes read) and encoded by Node's Request, as a browser would.
 * Returns the undo.
 */
export function encodeFormsAsNode(): () => void {
  const id = api.interceptors.request.use(async (config) => {
    if (!(config.data instanceof FormData)) return config;
    // Node's FormData: the jsdom environment's global is jsdom's.
    const NodeFormData = (await new Response(new URLSearchParams()).formData()).constructor as typeof FormData;
    const form = new NodeFormData();
    for (const [name, value] of config.data.entries()) {
      if (typeof value === 'string') form.append(name, value);
      else form.append(name, new NodeFile([new Uint8Array(await value.arrayBuffer())], value.name, { type: value.type }) as unknown as Blob, value.name);
    }
    const encoded = new Request('http://loopback/', { method: 'POST', body: form });
    config.headers.set('Content-Type', encoded.headers.get('content-type'));
    config.data = Buffer.from(await encoded.arrayBuffer());
    return config;
  });
  return () => api.interceptors.request.eject(id);
}
