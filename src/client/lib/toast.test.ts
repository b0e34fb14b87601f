import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorBody } from '../../domain/errors';
import { MSG } from '../../domain/messages';
import { parseError } from './api-client';
import { toast, toastError } from './toast';

const sonner = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('sonner', () => ({ toast: sonner }));

const shown = () => vi.waitFor(() => expect(sonner.error).toHaveBeenCalledTimes(1));

afterEach(() => {
  vi.clearAllMocks();
  vi.restoreAllMocks();
});

// One toast at a time: vitest's module runner leaves dynamic imports that race its first load of a mocked module
// unsettled (a browser loads a module once and answers them all).
describe('lib/toast (sonner loaded on demand)', () => {
  it('passes each kind of toast to sonner', async () => {
    toast.success('saved');
    await vi.waitFor(() => expect(sonner.success).toHaveBeenCalledWith('saved'));
    toast.info('note');
    await vi.waitFor(() => expect(sonner.info).toHaveBeenCalledWith('note'));
    toast.error('failed');
    await shown();
    expect(sonner.error).toHaveBeenCalledWith('failed');
  });

  it("toastError logs at once and toasts the reason's text, as lib/errors does", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const error = await parseError(new Response(JSON.stringify(errorBody('already_member')), { status: 409 }));
    toastError(error, MSG.inviteFailed);
    expect(log).toHaveBeenCalledWith(MSG.inviteFailed, error);
    await shown();
    expect(sonner.error).toHaveBeenCalledWith(MSG.alreadyMember);
  });

  it("toastError falls back to the caller's text for a crash", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    toastError(await parseError(new Response('', { status: 500 })), MSG.invalidCredentials);
    await shown();
    expect(sonner.error).toHaveBeenCalledWith(MSG.invalidCredentials);
  });
});
