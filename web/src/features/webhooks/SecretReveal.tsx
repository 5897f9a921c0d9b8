import { SecretShownOnce } from '../settings/SecretShownOnce';

/** A signing secret, shown once (the service never answers it again), with a copy button. */
export function SecretReveal({ secret, onDone }: { secret: string; onDone(): void }) {
  return (
    <SecretShownOnce label="Signing secret" secret={secret} warning="Copy the signing secret now" onDone={onDone}>
      It will not be shown again. Your endpoint verifies each delivery’s <code>webhook-signature</code> with it (Standard Webhooks); if you lose it, rotate it.
    </SecretShownOnce>
  );
}
