// The app's API client pointed at a loopback server playing the routes a test needs.
import { api } from '../api/http.ts';
import { startLoopback, type Handler, type Loopback } from './loopback.ts';

export async function startLoopbackApi(handler: Handler): Promise<Loopback> {
  const loopback = await startLoopback(handler);
  api.defaults.baseURL = `${loopback.baseUrl}/api`;
  // Node's HTTP client: jsdom's XMLHttpRequest would hold the loopback server to CORS.
  api.defaults.adapter = 'http';
  return loopback;
}
