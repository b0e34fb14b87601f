import { KeyRound } from 'lucide-react';
import { type FormEvent, useMemo, useState } from 'react';
import { API_TOKEN_EXPIRY_DAYS, type ApiTokenScope } from '../../../../domain/constants';
import { formatLongDate, localIsoDate, relativeTime } from '../../../../domain/dates';
import { MSG } from '../../../../domain/messages';
import {
  API_TOKEN_LIMITS,
  type ApiTokenCreatedDto,
  type ApiTokenDto,
  createApiTokenInput,
} from '../../../../domain/schemas/api-token';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { RevocableTokenList, SecretShownOnce } from '../../../components/ui/revocable-tokens';
import { saveForm } from '../../../lib/save-form';
import { useFormState } from '../../../lib/use-form-state';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '../api/api-tokens';
import { Loaded } from './loaded';
import { SettingsPanel, SettingsSection } from './settings-section';

const TEXT = {
  section: 'API tokens',
  sectionDescription:
    'Personal tokens let scripts and other tools use the Crewboard API as you, with your access to teams, projects and tasks. They never reach your password, email, two-factor, sessions or tokens.',
  createPanel: 'Create a token',
  createHint: 'Send it as a header: Authorization: Bearer cb_…',
  name: 'Name',
  namePlaceholder: 'e.g. Deploy script',
  expiry: 'Expiry',
  scope: 'Scope',
  create: 'Create token',
  created: 'Token created',
  createFailed: 'Failed to create the token',
  newToken: 'Your new token',
  newTokenLabel: 'New API token',
  shownOnce: 'Copy it now: it is shown only once and cannot be shown again. Lost it? Revoke it and create another.',
  copy: 'Copy',
  copied: 'Token copied',
  copyFailed: 'Could not copy: select the token and copy it yourself',
  done: 'Done',
  listPanel: 'Your tokens',
  empty: 'No API tokens yet.',
  neverUsed: 'Never used',
  neverExpires: 'Never expires',
  revoke: 'Revoke',
  revokeTitle: (name: string) => `Revoke the token “${name}”?`,
  revokeMessage: 'Scripts and tools using it stop working at once. This cannot be undone.',
  revoked: 'Token revoked',
  revokeFailed: 'Failed to revoke the token',
} as const;

/** The new token's region and label, as this page has always named them. */
const SHOWN_ONCE = { ...TEXT, region: TEXT.newToken, label: TEXT.newTokenLabel };

const SCOPE_LABELS: Record<ApiTokenScope, string> = { read: 'Read-only', write: 'Read and write' };
const EXPIRY_LABEL = (days: (typeof API_TOKEN_EXPIRY_DAYS)[number]) => (days === null ? 'Never' : `${days} days`);
const NEVER = 'never';

const longDate = (iso: string) => formatLongDate(localIsoDate(new Date(iso)));

/** Settings → API tokens (/settings#api-tokens, issue 26): create (shown once), list, revoke. */
export function ApiTokensSection() {
  const tokens = useApiTokens();
  return (
    <SettingsSection id="api-tokens" title={TEXT.section} description={TEXT.sectionDescription}>
      <Loaded query={tokens}>
        {(list) => (
          <>
            {list.verifyEmailFirst ? <VerifyEmailFirstPanel /> : <CreateTokenPanel />}
            <TokenListPanel tokens={list.tokens} />
          </>
        )}
      </Loaded>
    </SettingsSection>
  );
}

/** EMAIL_VERIFICATION=required and the address not verified: why there is no form (the server refuses one, 403). */
function VerifyEmailFirstPanel() {
  return (
    <SettingsPanel title={TEXT.createPanel}>
      <p className="text-sm text-slate-700 dark:text-slate-200">{MSG.credentialsEmailUnverified}</p>
    </SettingsPanel>
  );
}

function CreateTokenPanel() {
  const initial = useMemo(() => ({ name: '', expiry: '90', scope: 'read' }), []);
  const form = useFormState(initial);
  const create = useCreateApiToken();
  /** The token just made: held only while this page is open. */
  const [created, setCreated] = useState<ApiTokenCreatedDto | null>(null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const { name, expiry, scope } = form.values;
    const body = form.validate(createApiTokenInput, {
      name,
      scope,
      expiresInDays: expiry === NEVER ? null : Number(expiry),
    });
    if (!body) return;
    let made = null as ApiTokenCreatedDto | null;
    const saved = await saveForm(
      form,
      async () => {
        made = await create.mutateAsync(body);
      },
      { saved: TEXT.created, failed: TEXT.createFailed },
    );
    if (saved && made) {
      setCreated(made);
      form.reset();
    }
  };

  return (
    <SettingsPanel title={TEXT.createPanel} description={TEXT.createHint}>
      <div className="space-y-4">
        {created && (
          <SecretShownOnce
            key={created.id}
            name={created.name}
            secret={created.token}
            texts={SHOWN_ONCE}
            onDone={() => setCreated(null)}
          />
        )}
        <form onSubmit={onSubmit} noValidate aria-label={TEXT.createPanel} className="space-y-4">
          <TextField
            label={TEXT.name}
            placeholder={TEXT.namePlaceholder}
            maxLength={API_TOKEN_LIMITS.nameMax}
            autoComplete="off"
            className="max-w-lg"
            {...form.bind('name')}
          />
          <div className="grid max-w-lg gap-4 sm:grid-cols-2">
            <SelectField label={TEXT.expiry} {...form.bind('expiry')}>
              {API_TOKEN_EXPIRY_DAYS.map((days) => (
                <option key={days ?? NEVER} value={days ?? NEVER}>
                  {EXPIRY_LABEL(days)}
                </option>
              ))}
            </SelectField>
            <SelectField label={TEXT.scope} {...form.bind('scope')}>
              {(Object.keys(SCOPE_LABELS) as ApiTokenScope[]).map((scope) => (
                <option key={scope} value={scope}>
                  {SCOPE_LABELS[scope]}
                </option>
              ))}
            </SelectField>
          </div>
          <Button type="submit" isLoading={create.isPending}>
            <KeyRound className="h-4 w-4" aria-hidden />
            {TEXT.create}
          </Button>
        </form>
      </div>
    </SettingsPanel>
  );
}

function TokenListPanel({ tokens }: { tokens: ApiTokenDto[] }) {
  const revoke = useRevokeApiToken();
  const now = new Date();
  return (
    <SettingsPanel title={TEXT.listPanel}>
      {tokens.length === 0 && <p className="text-sm text-slate-600 dark:text-slate-300">{TEXT.empty}</p>}
      <RevocableTokenList
        tokens={tokens}
        label={TEXT.listPanel}
        texts={TEXT}
        revoke={revoke.mutateAsync}
        isRevoking={revoke.isPending}
        details={(t, rowId) => {
          const expired = t.expiresAt !== null && Date.parse(t.expiresAt) <= now.getTime();
          return (
            <>
              <p id={rowId} className="flex flex-wrap items-center gap-2 font-medium">
                <span className="break-all">{t.name}</span>
                <Badge tone={t.scope === 'write' ? 'warning' : 'info'}>{SCOPE_LABELS[t.scope]}</Badge>
                {expired && <Badge tone="danger">Expired</Badge>}
              </p>
              <p className="font-mono text-xs text-slate-600 dark:text-slate-300">{t.prefix}…</p>
              <p className="text-sm text-slate-600 dark:text-slate-300">
                Created {longDate(t.createdAt)} ·{' '}
                {t.expiresAt === null ? TEXT.neverExpires : `${expired ? 'Expired' : 'Expires'} ${longDate(t.expiresAt)}`} ·{' '}
                {t.lastUsedAt ? `Last used: ${relativeTime(new Date(t.lastUsedAt), now)}` : TEXT.neverUsed}
              </p>
            </>
          );
        }}
      />
    </SettingsPanel>
  );
}
