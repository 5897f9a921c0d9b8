import type { paths } from './schema';

/**
 * Shapes the API returns, taken from the generated OpenAPI types rather than restated: `DataOf<'/api/v1/tasks/{taskId}'>`
 * is the `data` of that route's success answer. Features name them in the domain's words (`type Task = …`).
 */
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Success<O> = O extends { responses: infer R } ? (R extends { 200: infer A } ? Json<A> : R extends { 201: infer B } ? Json<B> : never) : never;

export type DataOf<P extends keyof paths, M extends keyof paths[P] = 'get' & keyof paths[P]> = Success<paths[P][M]> extends { data: infer D } ? D : never;

/** One element of a list answer. */
export type ItemOf<P extends keyof paths, M extends keyof paths[P] = 'get' & keyof paths[P]> = DataOf<P, M> extends (infer I)[] ? I : never;
