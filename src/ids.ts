import { uuidv7 } from 'uuidv7';

/** Time-ordered, globally unique ids made by the service (never database sequences). */
export const newId = (): string => uuidv7();
