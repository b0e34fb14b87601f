import { TriangleAlert } from 'lucide-react';
import { type ReactNode, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { toastError } from '../../lib/errors';
import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';
import { CopyField } from './copy-field';

/** The texts of a token just made: its region's name, the label before its name, the warning, Copy's and Done's. */
export interface ShownOnceTexts {
  region: string;
  label: string;
  shownOnce: string;
  copy: string;
  copied: string;
  copyFailed: string;
  done: string;
}

/**
 * The secret of a token just made (an API token, a SCIM token): a labelled read-only field with Copy, the warning that
 * it is shown only once, and Done.
 */
export function SecretShownOnce({
  name,
  secret,
  texts,
  onDone,
}: {
  name: string;
  secret: string;
  texts: ShownOnceTexts;
  onDone: () => void;
}) {
  const fieldId = useId();
  const warningId = useId();
  return (
    <div
      role="region"
      aria-label={texts.region}
      className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-800 dark:bg-amber-950/40"
    >
      <label htmlFor={fieldId} className="block text-sm font-medium text-slate-800 dark:text-slate-100">
        {texts.label}: {name}
      </label>
      <CopyField id={fieldId} value={secret} describedBy={warningId} labels={texts} autoFocus />
      <p id={warningId} className="flex items-start gap-2 text-sm text-amber-900 dark:text-amber-100">
        <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        {texts.shownOnce}
      </p>
      <Button variant="secondary" size="sm" onClick={onDone}>
        {texts.done}
      </Button>
    </div>
  );
}

/** The texts of a list of revocable tokens. */
export interface RevokeTexts {
  revoke: string;
  revokeTitle: (name: string) => string;
  revokeMessage: string;
  revoked: string;
  revokeFailed: string;
}

/**
 * Tokens listed one a row (`details` draws a row's text; its first element should carry `id={rowId(token)}`, which
 * names the row's Revoke button), each revoked after a confirmation; the list keeps the focus when a row goes.
 */
export function RevocableTokenList<T extends { id: string; name: string }>({
  tokens,
  label,
  texts,
  details,
  revoke,
  isRevoking,
}: {
  tokens: T[];
  label: string;
  texts: RevokeTexts;
  details: (token: T, rowId: string) => ReactNode;
  revoke: (id: string) => Promise<unknown>;
  isRevoking: boolean;
}) {
  const [confirm, setConfirm] = useState<T | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const prefix = useId();

  const revokeToken = async () => {
    if (!confirm) return;
    try {
      await revoke(confirm.id);
      setConfirm(null);
      toast.success(texts.revoked);
      // The row (and its button) is gone: the list keeps the focus.
      listRef.current?.focus();
    } catch (error) {
      toastError(error, texts.revokeFailed);
    }
  };

  return (
    <>
      {tokens.length > 0 && (
        <ul
          ref={listRef}
          tabIndex={-1}
          aria-label={label}
          className="divide-y divide-slate-200 rounded-lg focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 dark:divide-slate-700"
        >
          {tokens.map((token) => {
            const rowId = `${prefix}-${token.id}`;
            return (
              <li key={token.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0 space-y-1">{details(token, rowId)}</div>
                <Button
                  variant="secondary"
                  size="sm"
                  aria-describedby={rowId}
                  disabled={isRevoking}
                  onClick={() => setConfirm(token)}
                >
                  {texts.revoke}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={confirm !== null}
        title={confirm ? texts.revokeTitle(confirm.name) : ''}
        message={texts.revokeMessage}
        confirmLabel={texts.revoke}
        isLoading={isRevoking}
        onConfirm={() => void revokeToken()}
        onCancel={() => setConfirm(null)}
      />
    </>
  );
}
