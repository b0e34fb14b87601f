import { Monitor } from 'lucide-react';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { relativeTime } from '../../../../domain/dates';
import { SECURITY_MSG, type SessionItemDto } from '../../../../domain/schemas/security';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { toastError } from '../../../lib/errors';
import { useRevokeSessions } from '../api/sessions';
import { SettingsPanel } from './settings-section';

/** The account's live sessions (device, IP, last activity), each signed out on its own, or all but this one. */
export function SessionsPanel({ sessions }: { sessions: SessionItemDto[] }) {
  const revoke = useRevokeSessions();
  const [pending, setPending] = useState<string | null>(null);
  // 'Also revoke API tokens and calendar links' beside 'Sign out all other sessions': unticked at first (issue 35).
  const [revokeTokens, setRevokeTokens] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);
  const hasOthers = sessions.some((s) => !s.current);

  /** One session by id, or (null) every other one. */
  const signOut = async (id: string | null) => {
    setPending(id ?? 'others');
    try {
      await revoke.mutateAsync({ id, revokeTokens: id === null && revokeTokens });
      toast.success(id ? SECURITY_MSG.sessionSignedOut : SECURITY_MSG.otherSessionsSignedOut);
      // The row (and its button) is gone: the list keeps the focus.
      listRef.current?.focus();
    } catch (error) {
      toastError(error, SECURITY_MSG.sessionSignOutFailed);
    } finally {
      setPending(null);
    }
  };

  const now = new Date();
  return (
    <SettingsPanel title="Active sessions" description="Where your account is signed in. Sign out anything you do not recognise.">
      <div className="space-y-4">
        <ul
          ref={listRef}
          tabIndex={-1}
          aria-label="Active sessions"
          className="divide-y divide-slate-200 rounded-lg focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 dark:divide-slate-700"
        >
          {sessions.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="flex min-w-0 items-start gap-3">
                <Monitor className="mt-0.5 h-5 w-5 shrink-0 text-slate-500 dark:text-slate-400" aria-hidden />
                <div className="min-w-0">
                  <p id={`session-${s.id}`} className="flex flex-wrap items-center gap-2 font-medium">
                    {s.device}
                    {s.current && <Badge tone="success">This device</Badge>}
                  </p>
                  <p className="text-sm text-slate-600 dark:text-slate-300">
                    {s.ip ?? 'Unknown address'} · Last active: {relativeTime(new Date(s.lastSeenAt), now)}
                  </p>
                </div>
              </div>
              {!s.current && (
                <Button
                  variant="secondary"
                  size="sm"
                  aria-describedby={`session-${s.id}`}
                  isLoading={pending === s.id}
                  disabled={pending !== null}
                  onClick={() => void signOut(s.id)}
                >
                  {SECURITY_MSG.signOut}
                </Button>
              )}
            </li>
          ))}
        </ul>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <Button
            variant="secondary"
            isLoading={pending === 'others'}
            disabled={!hasOthers || pending !== null}
            onClick={() => void signOut(null)}
          >
            {SECURITY_MSG.signOutOtherSessions}
          </Button>
          <label className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
            <input
              type="checkbox"
              name="revokeTokens"
              checked={revokeTokens}
              disabled={!hasOthers || pending !== null}
              onChange={(e) => setRevokeTokens(e.target.checked)}
              className="h-4 w-4 rounded border-slate-500 accent-brand-600 dark:accent-indigo-400"
            />
            {SECURITY_MSG.alsoRevokeTokens}
          </label>
        </div>
      </div>
    </SettingsPanel>
  );
}
