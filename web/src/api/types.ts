import type { components } from './schema';

/** Shapes the API returns, named in the domain's words (from the generated OpenAPI types). */
type S = components['schemas'];
type Pick<K extends string> = K extends keyof S ? S[K] : never;
export type { S as Schemas };
export type { Pick as SchemaOf };
