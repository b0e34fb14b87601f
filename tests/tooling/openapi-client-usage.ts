/**
 * A small client typed only by the OpenAPI document: `paths` comes from openapi-typescript
 * (tests/tooling/generated/openapi.d.ts, made by scripts/check-openapi.mjs). This file is never run; it is
 * typechecked (tsconfig.openapi.json), so a document that stops describing these calls fails `npm run openapi:check`.
 * The `@ts-expect-error` lines fail it too if the document's types stop being precise enough to refuse them.
 */
import type { paths } from './generated/openapi';

type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';
type Path = keyof paths;

/** The methods a path has (openapi-typescript writes `put?: never` for the others). */
type MethodOf<P extends Path> = { [M in HttpMethod]: paths[P][M] extends { responses: unknown } ? M : never }[HttpMethod];
type Operation<P extends Path, M extends MethodOf<P>> = Extract<paths[P][M], { responses: unknown }>;

type Json<T> = T extends { content: { 'application/json': infer J } } ? J : never;
type Nothing<T> = [T] extends [never] ? true : [T] extends [undefined] ? true : false;
/** A request field named K of the object T: absent when T has none, optional when T's is, else required. */
type Field<Name extends string, T, K extends keyof T, V = NonNullable<T[K]>> = Nothing<T[K]> extends true
  ? { [n in Name]?: never }
  : undefined extends T[K]
    ? { [n in Name]?: V }
    : { [n in Name]: V };

type Parameters<O> = O extends { parameters: infer P extends { path?: unknown; query?: unknown } } ? P : never;
type Init<O> = Field<'params', Parameters<O>, 'path'> &
  Field<'query', Parameters<O>, 'query'> &
  Field<'body', O & { requestBody?: unknown }, 'requestBody', Json<NonNullable<(O & { requestBody?: unknown })['requestBody']>>>;

/** The JSON of the operation's 2xx answer (null for 204). */
type Success<O> = O extends { responses: infer R }
  ? { [S in keyof R]: S extends 200 | 201 | 202 ? Json<R[S]> : S extends 204 ? null : never }[keyof R]
  : never;

export type Call = <P extends Path, M extends MethodOf<P>>(
  method: M,
  path: P,
  init: Init<Operation<P, M>>,
) => Promise<Success<Operation<P, M>>>;

/** `fetch` with the document's types: throws on a non-2xx answer, like src/client/lib/api-client.ts. */
export function createClient(baseUrl: string, token?: string): Call {
  return (async (method: string, path: string, init: { params?: object; query?: object; body?: unknown }) => {
    const params = (init.params ?? {}) as Record<string, string>;
    const url = new URL(
      path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? '')),
      baseUrl,
    );
    for (const [key, value] of Object.entries(init.query ?? {}))
      if (value !== undefined) url.searchParams.set(key, String(value));
    const res = await fetch(url, {
      method: method.toUpperCase(),
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (!res.ok) throw new Error(`${method.toUpperCase()} ${path}: ${res.status}`);
    return res.status === 204 ? null : res.json();
  }) as Call;
}

/** Sign in, list a project's open tasks, create one: what a script with a token does. */
export async function example(baseUrl: string): Promise<string> {
  const anonymous = createClient(baseUrl);
  const session = await anonymous('post', '/api/auth/token', {
    query: { grant_type: 'password' },
    body: { email: 'ada@example.com', password: 'correct horse battery staple' },
  });
  const accessToken: string = 'access_token' in session ? session.access_token : '';

  const api = createClient(baseUrl, accessToken);
  const teams = await api('get', '/api/teams', {});
  const teamId: string | undefined = teams[0]?.id;
  const projects = await api('get', '/api/projects', { query: { teamId } });
  const projectId = projects[0]?.id ?? '';
  const list = await api('get', '/api/tasks', { query: { projectId, open: 'true', sort: 'due', limit: 50 } });
  const titles: string[] = list.tasks.map((task) => task.title);

  const created = await api('post', '/api/tasks', {
    body: { title: 'Write the API reference', projectId, priority: 'high', dueDate: '2026-12-01' },
  });
  const moved = await api('patch', '/api/tasks/{id}/status', { params: { id: created.id }, body: { status: 'review' } });
  const deleted: null = await api('delete', '/api/tasks/{id}', { params: { id: moved.id } });
  void deleted;

  // A personal API token works the same way (`Authorization: Bearer cb_…`).
  const withToken = createClient(baseUrl, 'cb_example');
  const mine = await withToken('get', '/api/tasks/{id}', { params: { id: created.id } });

  // The types refuse what the API refuses:
  // @ts-expect-error a task needs a title
  await api('post', '/api/tasks', { body: { projectId } });
  // @ts-expect-error no such status category (a status is any key of the project's workflow: the server checks it)
  await api('get', '/api/tasks', { query: { category: 'done' } });
  // @ts-expect-error a task's id is a path parameter, and it is required
  await api('get', '/api/tasks/{id}', {});
  // @ts-expect-error no such route
  await api('get', '/api/task', {});
  // @ts-expect-error the list has no PUT
  await api('put', '/api/tasks', {});

  return `${mine.title}: ${titles.length} open`;
}
