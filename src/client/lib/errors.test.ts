import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, errorBody } from '../../domain/errors';
import { MSG } from '../../domain/messages';
import { ApiError, parseError } from './api-client';
import { classifyRefreshError, errorText, isError } from './errors';

const answer = (status: number, body?: unknown, type = 'application/json') =>
  new Response(body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': type },
  });

describe('parseError', () => {
  it('takes the code and the reason from an error body', async () => {
    const error = await parseError(answer(409, errorBody('already_member')));
    expect(error).toMatchObject({ status: 409, code: 'conflict', reason: 'already_member' });
  });

  it('gives a body-less answer the code its status stands for, never validation_failed', async () => {
    expect((await parseError(answer(404))).code).toBe('not_found');
    expect((await parseError(answer(502, '<html>Bad Gateway</html>', 'text/html'))).code).toBe('unavailable');
    expect((await parseError(answer(500, ''))).code).toBe('internal');
    expect((await parseError(answer(403, 'nope', 'text/plain'))).code).toBe('permission_denied');
  });

  it('ignores a code or reason it does not know', async () => {
    const error = await parseError(answer(404, { error: { code: 'teapot', reason: 'brewing', message: 'x' } }));
    expect(error).toMatchObject({ code: 'not_found', reason: 'not_found' });
  });
});

describe('errorText', () => {
  const fallback = 'Failed to update task';

  it('shows the table text for a specific reason, not the body English', async () => {
    const body = { error: { code: 'conflict', reason: 'already_member', message: 'something the server said' } };
    expect(errorText(await parseError(answer(409, body)), fallback)).toBe(MSG.alreadyMember);
  });

  it("shows the caller's own text for a crash, a bad request, a network failure or a non-API error", async () => {
    expect(errorText(await parseError(answer(500, errorBody('internal'))), fallback)).toBe(fallback);
    expect(errorText(await parseError(answer(400, errorBody('validation_failed'))), fallback)).toBe(fallback);
    expect(errorText(new ApiError(0, 'network_error', 'network_error', 'offline'), fallback)).toBe(fallback);
    expect(errorText(new TypeError('boom'), fallback)).toBe(fallback);
  });

  it('has a text for every reason', () => {
    for (const text of Object.values(ERROR_MESSAGES)) expect(text).toMatch(/\S/);
  });
});

describe('isError and classifyRefreshError', () => {
  it('matches a reason or its code', async () => {
    const stale = await parseError(answer(409, errorBody('stale_edit')));
    expect(isError(stale, 'stale_edit')).toBe(true);
    expect(isError(stale, 'conflict')).toBe(true);
    expect(isError(stale, 'already_member')).toBe(false);
  });

  it('treats 400/401 as a refused session, 502-504 and network failures as retryable', async () => {
    expect(classifyRefreshError(await parseError(answer(401, errorBody('session_invalid'))))).toBe('refused');
    expect(classifyRefreshError(await parseError(answer(400, errorBody('invalid_grant'))))).toBe('refused');
    expect(classifyRefreshError(await parseError(answer(503)))).toBe('retryable');
    expect(classifyRefreshError(new TypeError('fetch failed'))).toBe('retryable');
    expect(classifyRefreshError(await parseError(answer(500)))).toBe('other');
  });
});
