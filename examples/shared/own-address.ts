/**
 * Whether a URL points at the example app itself: same port, on a loopback
 * name or address, the wildcard address, the host the app binds, or (when
 * it binds every interface) one of this machine's addresses or its host
 * name. An upstream base URL like that makes the gateway its own upstream.
 * Names that only resolve to this machine through DNS are not caught here;
 * the gateway's `Via` check refuses those requests (508) at run time.
 */
import { hostname, networkInterfaces } from 'node:os';

const LOOPBACK_NAMES = new Set(['localhost', '0.0.0.0', '::', '::1']);
const WILDCARDS = new Set(['0.0.0.0', '::']);

function bare(host: string): string {
  return host.replace(/^\[|\]$/g, '').toLowerCase();
}

function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host);
}

/** This machine's interface addresses and host name (for an app that listens on every interface). */
function machineNames(): Set<string> {
  const names = new Set([hostname().toLowerCase()]);
  for (const addresses of Object.values(networkInterfaces())) {
    for (const { address } of addresses ?? []) names.add(bare(address));
  }
  return names;
}

/** True when `url` names the app listening on `host`:`port`. A URL that does not parse is not the app. */
export function pointsAtOwnAddress(url: string, listen: { host: string; port: number }): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
  if (port !== listen.port) return false;
  const target = bare(parsed.hostname);
  const bound = bare(listen.host);
  if (isLoopback(target) || target === bound) return true;
  return WILDCARDS.has(bound) && machineNames().has(target);
}
