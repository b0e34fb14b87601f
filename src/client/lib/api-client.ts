import { ERROR_STATUS, type ErrorCode, type ErrorReason, isErrorReason } from '../../domain/errors';
import type { SessionDto } from '../../domain/schemas/auth';
import { useAuthStore } from '../stores/auth-store';

/**
 * A failed call to the API: its `code` (the class, for branching) and `reason` (the specific
 * failure, for the text a person reads; see domain/errors.ts). Components branch on these,
 * never on the HTTP status.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'network_error',
    readonly reason: ErrorReason | 'network_error',
    message: string,
    readonly fields: Record<string, string> = {},
    /** Anything else the error body holds (the `mfa_token` of a sign-in that asks for a code next). */
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

/** The code an answer without a usable body stands for (a proxy's 502, a bare 404). */
export function codeForStatus(status: number): ErrorCode {
  const exact = (Object.keys(ERROR_STATUS) as ErrorCode[]).find(
    (code) => ERROR_STATUS[code] === status && code !== 'invalid_credentials' && code !== 'invalid_grant',
  );
  if (exact) return exact;
  if (status >= 500) return status === 501 ? 'internal' : 'unavailable';
  return 'validation_failed';
}

/** A query's parameters; an array repeats its parameter (`cf=a&cf=b`). */
export type ApiQuery = Record<string, string | number | boolean | readonly string[] | undefined | null>;
type Query = ApiQuery;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** Skip the bearer token (public endpoints). */
  anonymous?: boolean;
  /**
   * A GET whose route answers with an ETag (the list and the board, issue 42): the last answer to the same URL is kept
   * (in memory, a few URLs) and sent back as `If-None-Match`; a 304 returns it again without a body on the wire, nor
   * the server's JSON and compression work.
   */
  revalidate?: boolean;
}

/** The last answers to `revalidate` GETs, by URL: their ETag and parsed body. */
const revalidated = new Map<string, { etag: string; body: unknown }>();
const REVALIDATED_MAX = 50;

function buildUrl(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (Array.isArray(v)) for (const item of v) params.append(k, item);
    else if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export async function parseError(res: Response): Promise<ApiError> {
  let body: {
    error?: { code?: unknown; reason?: unknown; message?: string; fields?: Record<string, string>; [key: string]: unknown };
  } = {};
  try {
    body = await res.json();
  } catch {
    // not JSON: a proxy's page, an empty body
  }
  const sent = body.error?.code;
  const code = typeof sent === 'string' && Object.hasOwn(ERROR_STATUS, sent) ? (sent as ErrorCode) : codeForStatus(res.status);
  const reason = isErrorReason(body.error?.reason) ? body.error.reason : code;
  const { code: _code, reason: _reason, message, fields, ...details } = body.error ?? {};
  return new ApiError(res.status, code, reason, message ?? res.statusText ?? 'Request failed', fields ?? {}, details);
}

let refreshing: Promise<SessionDto | null> | null = null;

/** Exchanges the stored refresh token once, shared by concurrent callers. */
export function refreshSession(): Promise<SessionDto | null> {
  refreshing ??= (async () => {
    const current = useAuthStore.getState().session;
    if (!current?.refresh_token) return null;
    try {
      const res = await fetch('/api/auth/token?grant_type=refresh_token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: current.refresh_token }),
      });
      if (!res.ok) {
        if (res.status === 400 || res.status === 401) useAuthStore.getState().signOutLocal();
        throw await parseError(res);
      }
      const session = (await res.json()) as SessionDto;
      useAuthStore.getState().setSession(session);
      return session;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/** The signed-in session's bearer token (requests that cannot go through `api` get it from withFreshToken). */
const accessToken = (): string | undefined => useAuthStore.getState().session?.access_token;

/**
 * The client's one refresh-and-retry, for every request to the API (`api`, uploads, downloads, the realtime stream):
 * `attempt` sends the request with the bearer token it is given (none when signed out). A 401 to a request that
 * carried a token means the token ran out: the session is refreshed once (one refresh shared by every caller that
 * meets a 401 at the same time, see refreshSession) and the request sent once more with the new token. Its answer is
 * the answer, even a second 401 (no loop); a refused refresh signs out (refreshSession) and the first 401 stands.
 */
export async function withFreshToken<R extends { status: number }>(
  attempt: (token: string | undefined) => Promise<R>,
  { anonymous = false }: { anonymous?: boolean } = {},
): Promise<R> {
  const token = anonymous ? undefined : accessToken();
  const answer = await attempt(token);
  if (answer.status !== 401 || !token) return answer;
  const session = await refreshSession().catch(() => null);
  return session ? attempt(session.access_token) : answer;
}

/** The network failure of a request that got no answer (never the server's words: there are none). */
export const networkError = () =>
  new ApiError(0, 'network_error', 'network_error', 'Network error: the server could not be reached');

async function send(method: string, path: string, options: RequestOptions): Promise<Response> {
  return withFreshToken(
    async (token) => {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (token) headers.authorization = `Bearer ${token}`;
      const kept = options.revalidate ? revalidated.get(buildUrl(path, options.query)) : undefined;
      if (kept) headers['if-none-match'] = kept.etag;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      try {
        return await fetch(buildUrl(path, options.query), {
          method,
          headers,
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
          signal: options.signal,
        });
      } catch (error) {
        if ((error as Error).name === 'AbortError') throw error;
        throw networkError();
      }
    },
    { anonymous: options.anonymous },
  );
}

async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const res = await send(method, path, options);
  if (options.revalidate) {
    const url = buildUrl(path, options.query);
    const kept = revalidated.get(url);
    if (res.status === 304 && kept) return kept.body as T;
    const etag = res.ok ? res.headers.get('etag') : null;
    if (!etag) {
      revalidated.delete(url);
    } else {
      const body = (await res.json()) as T;
      // Newest last: the oldest goes first when full.
      revalidated.delete(url);
      revalidated.set(url, { etag, body });
      if (revalidated.size > REVALIDATED_MAX) revalidated.delete(revalidated.keys().next().value as string);
      return body;
    }
  }
  if (!res.ok) throw await parseError(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

// Another person (or nobody) signed in: they start with no kept answers.
useAuthStore.subscribe((state, previous) => {
  if (state.session?.user.id !== previous.session?.user.id) revalidated.clear();
});

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  delete: <T = void>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};
