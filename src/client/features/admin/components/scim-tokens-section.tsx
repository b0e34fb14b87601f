import { KeyRound } from 'lucide-react';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { formatLongDate, localIsoDate, relativeTime } from '../../../../domain/dates';
import { MSG } from '../../../../domain/messages';
import {
  createScimTokenInput,
  SCIM_TOKEN_LIMITS,
  type ScimTokenCreatedDto,
  type ScimTokenDto,
} from '../../../../domain/schemas/scim';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { RevocableTokenList, SecretShownOnce } from '../../../components/ui/revocable-tokens';
import { errorText } from '../../../lib/errors';
import { saveForm } from '../../../lib/save-form';
import { useFormState } from '../../../lib/use-form-state';
import { useCreateScimToken, useRevokeScimToken, useScimTokens } from '../api/scim-tokens';

const TEXT = {
  title: 'SCIM tokens',
  description:
    'An identity provider (Okta, Entra ID, …) provisions people and teams through SCIM 2.0 with one of these tokens. Teams it creates are owned by the admin who created the token.',
  endpoint: 'SCIM base URL',
  name: 'Token name',
  namePlaceholder: 'e.g. Okta',
  create: 'Create token',
  created: 'SCIM token created',
  createFailed: 'Failed to create the SCIM token',
  region: 'New SCIM token',
  label: 'New SCIM token',
  shownOnce: 'Copy it now: it is shown only once. Lost it? Revoke it and create another.',
  copy: 'Copy',
  copied: 'Token copied',
  copyFailed: 'Could not copy: select the token and copy it yourself',
  done: 'Done',
  list: 'Active SCIM tokens',
  empty: 'No SCIM tokens yet.',
  neverUsed: 'Never used',
  revoke: 'Revoke',
  revokeTitle: (name: string) => `Revoke the SCIM token “${name}”?`,
  revokeMessage: 'Provisioning with it stops at once. This cannot be undone.',
  revoked: 'SCIM token revoked',
  revokeFailed: 'Failed to revoke the SCIM token',
} as const;

const when = (iso: string) => formatLongDate(localIsoDate(new Date(iso)));

/** The admin panel's 'SCIM tokens' section (issue 41): create (the secret shown once), list, revoke. */
export function ScimTokensSection() {
  const tokens = useScimTokens();
  const headingId = useId();
  const endpoint = `${window.location.origin}/scim/v2`;
  return (
    <Card className="p-4">
      <section id="scim-tokens" aria-labelledby={headingId} className="space-y-4">
        <div className="space-y-1">
          <h2 id={headingId} className="text-lg font-semibold">
            {TEXT.title}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">{TEXT.description}</p>
          <p className="text-sm text-slate-700 dark:text-slate-200">
            {TEXT.endpoint}: <code className="break-all rounded bg-slate-100 px-1 font-mono dark:bg-slate-800">{endpoint}</code>
          </p>
        </div>
        <CreateScimToken />
        {tokens.isError ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {errorText(tokens.error, MSG.loadFailed)}
          </p>
        ) : tokens.data ? (
          <ScimTokenList tokens={tokens.data.tokens} />
        ) : (
          <div className="h-16 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800" aria-hidden />
        )}
      </section>
    </Card>
  );
}

function CreateScimToken() {
  const initial = useMemo(() => ({ name: '' }), []);
  const form = useFormState(initial);
  const create = useCreateScimToken();
  const [shown, setShown] = useState<ScimTokenCreatedDto | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = form.validate(createScimTokenInput, form.values);
    if (!body) return;
    let made: ScimTokenCreatedDto | null = null;
    const ok = await saveForm(
      form,
      async () => {
        made = await create.mutateAsync(body);
      },
      { saved: TEXT.created, failed: TEXT.createFailed },
    );
    if (ok && made) {
      setShown(made);
      form.reset();
    }
  };

  return (
    <div className="space-y-4">
      {shown && (
        <SecretShownOnce key={shown.id} name={shown.name} secret={shown.token} texts={TEXT} onDone={() => setShown(null)} />
      )}
      <form onSubmit={submit} noValidate aria-label={TEXT.create} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <TextField
          label={TEXT.name}
          placeholder={TEXT.namePlaceholder}
          maxLength={SCIM_TOKEN_LIMITS.nameMax}
          autoComplete="off"
          className="w-full sm:max-w-sm"
          {...form.bind('name')}
        />
        <Button type="submit" isLoading={create.isPending} className="self-start sm:self-auto">
          <KeyRound className="h-4 w-4" aria-hidden />
          {TEXT.create}
        </Button>
      </form>
    </div>
  );
}

function ScimTokenList({ tokens }: { tokens: ScimTokenDto[] }) {
  const revoke = useRevokeScimToken();
  const now = new Date();
  if (tokens.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-300">{TEXT.empty}</p>;
  return (
    <RevocableTokenList
      tokens={tokens}
      label={TEXT.list}
      texts={TEXT}
      revoke={revoke.mutateAsync}
      isRevoking={revoke.isPending}
      details={(token, rowId) => (
        <>
          <p id={rowId} className="break-all font-medium">
            {token.name}
          </p>
          <p className="font-mono text-xs text-slate-600 dark:text-slate-300">{token.prefix}…</p>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Created {when(token.createdAt)} by {token.createdBy.fullName || token.createdBy.email} ·{' '}
            {token.lastUsedAt ? `Last used: ${relativeTime(new Date(token.lastUsedAt), now)}` : TEXT.neverUsed}
          </p>
        </>
      )}
    />
  );
}
