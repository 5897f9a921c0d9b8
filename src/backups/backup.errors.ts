/** A backup or restore that cannot go on, with a message the operator can act on (printed as is by `kb`, logged by the job). */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}
