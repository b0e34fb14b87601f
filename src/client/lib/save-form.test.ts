import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { saveForm } from './save-form';

const shown = vi.hoisted(() => ({ success: [] as string[], errors: [] as string[] }));
vi.mock('./toast', () => ({
  toast: { success: (m: string) => shown.success.push(m), error: (m: string) => shown.errors.push(m) },
  toastError: (_error: unknown, fallback: string) => shown.errors.push(fallback),
}));

/** A form with the fields `code` and `email`, recording what it was told. */
function fakeForm() {
  const told: Record<string, string>[] = [];
  return {
    told,
    showFieldErrors: (fields: Record<string, string>) => {
      const known = Object.entries(fields).filter(([k]) => k === 'code' || k === 'email');
      if (known.length) told.push(Object.fromEntries(known));
      return known.length > 0;
    },
  };
}

const refusal = (fields: Record<string, string> = {}) =>
  new ApiError(400, 'validation_failed', 'validation_failed', 'server words', fields);

describe('saveForm', () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  afterEach(() => {
    shown.success.length = 0;
    shown.errors.length = 0;
  });

  it('answers true and toasts the saved text, or nothing when the form has none', async () => {
    expect(await saveForm(fakeForm(), async () => {}, { saved: 'Saved', failed: 'Failed' })).toBe(true);
    expect(await saveForm(fakeForm(), async () => {}, { failed: 'Failed' })).toBe(true);
    expect(shown.success).toEqual(['Saved']);
    expect(shown.errors).toEqual([]);
  });

  it('on a failure shows the field messages, toasts the failure, calls onFailed, answers false and never throws', async () => {
    const form = fakeForm();
    const onFailed = vi.fn();
    const error = refusal({ email: 'Taken' });
    const saved = await saveForm(
      form,
      async () => {
        throw error;
      },
      { saved: 'Saved', failed: 'Failed' },
      { onFailed },
    );
    expect(saved).toBe(false);
    expect(form.told).toEqual([{ email: 'Taken' }]);
    expect(shown.errors).toEqual(['Failed']);
    expect(shown.success).toEqual([]);
    expect(onFailed).toHaveBeenCalledWith(error);
  });

  it('with fieldErrorsOnly, a failure told beside a field has no toast; one no field tells is toasted', async () => {
    const form = fakeForm();
    const fail = (error: unknown) => async () => {
      throw error;
    };
    await saveForm(form, fail(refusal({ code: 'Wrong code' })), { failed: 'Failed' }, { fieldErrorsOnly: true });
    expect(form.told).toEqual([{ code: 'Wrong code' }]);
    expect(shown.errors).toEqual([]);
    await saveForm(form, fail(refusal({ other: 'x' })), { failed: 'Failed' }, { fieldErrorsOnly: true });
    await saveForm(form, fail(new Error('network')), { failed: 'Failed' }, { fieldErrorsOnly: true });
    expect(shown.errors).toEqual(['Failed', 'Failed']);
  });

  it('with logOnly, a failure is logged without a toast', async () => {
    const saved = await saveForm(
      fakeForm(),
      async () => {
        throw refusal();
      },
      { failed: 'Failed' },
      { logOnly: true },
    );
    expect(saved).toBe(false);
    expect(shown.errors).toEqual([]);
    expect(console.error).toHaveBeenCalledWith('Failed', expect.any(ApiError));
  });
});
