import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';

/** A pass-through that counts and hashes what flows by (SHA-256), calling `onBytes` with the running total. */
export class Meter extends Transform {
  private readonly hash = createHash('sha256');
  bytes = 0;

  constructor(private readonly onBytes?: (total: number) => void) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null, data?: Buffer) => void) {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    this.onBytes?.(this.bytes);
    done(null, chunk);
  }

  /** The hash, once the stream has ended. */
  sha256(): string {
    return this.hash.copy().digest('hex');
  }
}
