import { CalendarPlus } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { localIsoDate, formatLongDate, relativeTime } from '../../../../domain/dates';
import { MSG } from '../../../../domain/messages';
import type { CalendarFeedStatusDto } from '../../../../domain/schemas/calendar';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CopyField } from '../../../components/ui/copy-field';
import { toastError } from '../../../lib/errors';
import { useCalendarFeed, useCreateCalendarFeed, useRevokeCalendarFeed } from '../api/calendar-feed';
import { Loaded } from './loaded';
import { SettingsPanel, SettingsSection } from './settings-section';

const TEXT = {
  section: 'Calendar feed',
  sectionDescription: 'See the due dates of your teams’ tasks in Google Calendar, Outlook or Apple Calendar.',
  panel: 'Your personal calendar link',
  explain:
    'A private address that lists every task with a due date in all your teams as all-day events, past and future (if there are more than 5,000, the 5,000 due latest). It gives read access to this feed only, nothing else in your account, and it is shown only once: keep it to yourself.',
  howTo: 'Paste this address into your calendar app (Google Calendar: Other calendars → From URL)',
  subscribe: 'Subscribe',
  reset: 'Reset link',
  revoke: 'Revoke',
  copy: 'Copy',
  copied: 'Link copied',
  copyFailed: 'Could not copy: select the address and copy it yourself',
  createFailed: 'Failed to create the calendar link',
  revokeFailed: 'Failed to revoke the calendar link',
  resetTitle: 'Reset the calendar link?',
  resetMessage:
    'A new address replaces the current one, which stops working at once. Calendars subscribed to the old address must be given the new one.',
  revokeTitle: 'Revoke the calendar link?',
  revokeMessage: 'The address stops working at once and calendars subscribed to it stop updating. You can subscribe again later.',
  revoked: 'Calendar link revoked',
  urlLabel: 'Calendar address',
  shownOnce: 'Copy it now: for your safety it will not be shown again. Lost it? Reset the link.',
  hiddenUrl: 'The address was shown when it was made. Lost it? Reset the link to get a new one.',
} as const;

/** Settings → Calendar feed (/settings#calendar-feed): make, reset or revoke the secret iCalendar link. */
export function CalendarFeedSection() {
  const feed = useCalendarFeed();
  return (
    <SettingsSection id="calendar-feed" title={TEXT.section} description={TEXT.sectionDescription}>
      <Loaded query={feed}>{(status) => <CalendarFeedPanel status={status} />}</Loaded>
    </SettingsSection>
  );
}

type Confirm = 'reset' | 'revoke' | null;

function CalendarFeedPanel({ status }: { status: CalendarFeedStatusDto }) {
  const create = useCreateCalendarFeed();
  const revoke = useRevokeCalendarFeed();
  /** The URL just made: held only while this page is open. */
  const [url, setUrl] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const fieldRef = useRef<HTMLInputElement>(null);
  const fieldId = useId();
  const hintId = useId();

  const makeLink = async () => {
    try {
      const created = await create.mutateAsync();
      setUrl(created.url);
      setConfirm(null);
      // The new address is what one wants next: selected, ready to copy.
      requestAnimationFrame(() => fieldRef.current?.select());
    } catch (error) {
      toastError(error, TEXT.createFailed);
    }
  };

  const revokeLink = async () => {
    try {
      await revoke.mutateAsync();
      setUrl(null);
      setConfirm(null);
      toast.success(TEXT.revoked);
    } catch (error) {
      toastError(error, TEXT.revokeFailed);
    }
  };

  const now = new Date();
  return (
    <SettingsPanel title={TEXT.panel} description={TEXT.explain}>
      {!status.active && status.verifyEmailFirst ? (
        // EMAIL_VERIFICATION=required and the address not verified: why there is no button (the server says 403).
        <p className="text-sm text-slate-700 dark:text-slate-200">{MSG.credentialsEmailUnverified}</p>
      ) : !status.active ? (
        <Button onClick={() => void makeLink()} isLoading={create.isPending}>
          <CalendarPlus className="h-4 w-4" aria-hidden />
          {TEXT.subscribe}
        </Button>
      ) : (
        <div className="space-y-4">
          {url ? (
            <div className="space-y-2">
              <label htmlFor={fieldId} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
                {TEXT.urlLabel}
              </label>
              <CopyField id={fieldId} value={url} describedBy={hintId} labels={TEXT} inputRef={fieldRef} />
              <div id={hintId} className="space-y-1 text-sm text-slate-600 dark:text-slate-300">
                <p>{TEXT.howTo}</p>
                <p>{TEXT.shownOnce}</p>
              </div>
            </div>
          ) : (
            <p className="text-sm text-slate-600 dark:text-slate-300">{TEXT.hiddenUrl}</p>
          )}
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600 dark:text-slate-300">Created</dt>
            <dd>{status.createdAt ? formatLongDate(localIsoDate(new Date(status.createdAt))) : '—'}</dd>
            <dt className="text-slate-600 dark:text-slate-300">Last used</dt>
            <dd>{status.lastUsedAt ? relativeTime(new Date(status.lastUsedAt), now) : 'Not yet'}</dd>
          </dl>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setConfirm('reset')} disabled={create.isPending || revoke.isPending}>
              {TEXT.reset}
            </Button>
            <Button variant="danger" onClick={() => setConfirm('revoke')} disabled={create.isPending || revoke.isPending}>
              {TEXT.revoke}
            </Button>
          </div>
        </div>
      )}
      <ConfirmDialog
        open={confirm === 'reset'}
        title={TEXT.resetTitle}
        message={TEXT.resetMessage}
        confirmLabel={TEXT.reset}
        destructive={false}
        isLoading={create.isPending}
        onConfirm={() => void makeLink()}
        onCancel={() => setConfirm(null)}
      />
      <ConfirmDialog
        open={confirm === 'revoke'}
        title={TEXT.revokeTitle}
        message={TEXT.revokeMessage}
        confirmLabel={TEXT.revoke}
        isLoading={revoke.isPending}
        onConfirm={() => void revokeLink()}
        onCancel={() => setConfirm(null)}
      />
    </SettingsPanel>
  );
}
