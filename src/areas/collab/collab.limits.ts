import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import proxyAddr from 'proxy-addr';
import type { Config } from '../../config.js';

/** The close code a socket gets when it authenticated no document in COLLAB_AUTH_TIMEOUT_MS (Hocuspocus's own timeout code). */
export const AUTH_TIMED_OUT = { code: 4408, reason: 'authentication-timeout' };

/** What a socket may be closed through (the WebSocket under the crossws peer). */
interface Closable {
  close(code: number, reason: string): void;
}

/**
 * The client's address as the HTTP layer has it: Fastify's `request.ip` (which rate limiting keys on) is `proxy-addr`
 * with the same trust, so under TRUST_PROXY the furthest address of `X-Forwarded-For`, else the socket's peer.
 */
export function clientAddressOf(request: IncomingMessage, trustProxy: boolean): string {
  return proxyAddr(request, () => trustProxy) || 'unknown';
}

/**
 * Limits on co-editing sockets, so one script cannot hold the service's memory and file descriptors: at most
 * COLLAB_MAX_SOCKETS_PER_CLIENT open sockets per client address (the next upgrade is answered 429 before a WebSocket
 * exists), and a socket that has authenticated no document COLLAB_AUTH_TIMEOUT_MS after it opened is closed with
 * AUTH_TIMED_OUT.
 */
export class SocketLimits {
  private readonly openPerClient = new Map<string, number>();
  private readonly clocks = new WeakMap<object, NodeJS.Timeout>();

  constructor(private readonly config: Pick<Config, 'COLLAB_MAX_SOCKETS_PER_CLIENT' | 'COLLAB_AUTH_TIMEOUT_MS' | 'TRUST_PROXY'>) {}

  /**
   * Counts an upgrade against its client's address until its socket closes; over the cap, answers 429 on the raw
   * socket and ends it (false: nothing more to do with it).
   */
  admit(request: IncomingMessage, socket: Duplex): boolean {
    const address = clientAddressOf(request, this.config.TRUST_PROXY);
    const open = this.openPerClient.get(address) ?? 0;
    if (open >= this.config.COLLAB_MAX_SOCKETS_PER_CLIENT) {
      const body = `Too many co-editing connections from this address (at most ${this.config.COLLAB_MAX_SOCKETS_PER_CLIENT})`;
      const head = `HTTP/1.1 429 Too Many Requests\r\nRetry-After: 10\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}`;
      socket.end(`${head}\r\n\r\n${body}`, () => socket.destroy()); // not left half-open for a client that never closes
      return false;
    }
    this.openPerClient.set(address, open + 1);
    socket.once('close', () => {
      const left = (this.openPerClient.get(address) ?? 1) - 1;
      if (left > 0) this.openPerClient.set(address, left);
      else this.openPerClient.delete(address);
    });
    return true;
  }

  /** Starts the authentication clock of a socket that just opened (`request` is the one Hocuspocus hands its hooks). */
  watch(request: object, websocket: Closable): void {
    const clock = setTimeout(() => {
      this.clocks.delete(request);
      websocket.close(AUTH_TIMED_OUT.code, AUTH_TIMED_OUT.reason);
    }, this.config.COLLAB_AUTH_TIMEOUT_MS);
    clock.unref();
    this.clocks.set(request, clock);
  }

  /** The socket of `request` authenticated a document, or closed: its clock stops (it may stay open). */
  settled(request: object): void {
    clearTimeout(this.clocks.get(request));
    this.clocks.delete(request);
  }
}
